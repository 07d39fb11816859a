import { InvalidArgumentError } from "@engram/kernel";
import { checkRedirectUrl, isAllowedRedirect, isLoopbackHost, parseRedirectOrigin, redirectUrlProblem } from "../../src/domain/redirect";

const policy = { origins: ["https://app.example.com", "http://localhost:3000"], publicUrl: "https://engram.example.com/" };

describe("redirect URLs", () => {
  it.each([
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "ftp://app.example.com/x",
    "http://app.example.com/done",
    "http://10.0.0.5/done",
    "https://user:pass@app.example.com/done",
    "not a url",
    "/relative/path",
  ])("refuses %s, whatever the allowed origins", (url) => {
    expect(redirectUrlProblem(url)).toBeDefined();
    expect(() => checkRedirectUrl(url, { ...policy, origins: [...policy.origins, "https://app.example.com"] })).toThrow(InvalidArgumentError);
    expect(isAllowedRedirect(url, policy)).toBe(false);
  });

  it("accepts https to an allowed origin and http only on loopback hosts", () => {
    expect(checkRedirectUrl("https://app.example.com/done?x=1", policy)).toBe("https://app.example.com/done?x=1");
    expect(checkRedirectUrl("http://localhost:3000/cb", policy)).toBe("http://localhost:3000/cb");
    for (const h of ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "app.localhost"]) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ["localhost.example.com", "10.0.0.1", "128.0.0.1"]) expect(isLoopbackHost(h)).toBe(false);
  });

  it("refuses https to an origin the tenant did not allow, naming the setting", () => {
    for (const url of ["https://evil.example.net/", "https://app.example.com:8443/", "https://sub.app.example.com/", "http://localhost:4000/"]) {
      let err: unknown;
      try {
        checkRedirectUrl(url, policy);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as Error).message).toMatch(/allowedRedirectOrigins/);
    }
  });

  it("always allows the deployment's own origin (ENGRAM_PUBLIC_URL)", () => {
    expect(isAllowedRedirect("https://engram.example.com/console", { origins: [], publicUrl: "https://engram.example.com/" })).toBe(true);
    expect(isAllowedRedirect("https://engram.example.com/console", { origins: [] })).toBe(false);
  });

  it("parses allowed origins: scheme, host and port only", () => {
    expect(parseRedirectOrigin("https://App.Example.com")).toEqual({ origin: "https://app.example.com" });
    expect(parseRedirectOrigin("https://app.example.com/")).toEqual({ origin: "https://app.example.com" });
    expect(parseRedirectOrigin("http://localhost:3000")).toEqual({ origin: "http://localhost:3000" });
    for (const bad of ["https://app.example.com/path", "https://app.example.com/?q=1", "http://app.example.com", "javascript:alert(1)", "app.example.com"])
      expect(parseRedirectOrigin(bad)).toHaveProperty("problem");
  });
});
