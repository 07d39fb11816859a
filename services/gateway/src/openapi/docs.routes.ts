import fs from "node:fs";
import path from "node:path";
import { Router } from "express";
import { HttpProblem } from "../http/errors";
import { buildOpenApiDocument } from "./registry";

/** The files of swagger-ui-dist the page loads (nothing else of the package is served). */
const ASSETS = new Set(["swagger-ui-bundle.js", "swagger-ui.css", "favicon-16x16.png", "favicon-32x32.png"]);

/**
 * The page's own CSP: its scripts and styles from this origin only (Swagger
 * UI sets inline style attributes, hence 'unsafe-inline' for styles, never
 * for scripts), images from here or data: URLs, calls to this origin only
 * (the description and "Try it out"), no framing.
 */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Engram API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" sizes="32x32" href="/docs/assets/favicon-32x32.png">
<link rel="icon" type="image/png" sizes="16x16" href="/docs/assets/favicon-16x16.png">
</head>
<body>
<noscript>The API reference needs JavaScript; the description itself is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/** The initializer, a file of its own: the CSP allows no inline script. */
const INIT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // No call to the public validator service: the page works offline and loads nothing from elsewhere.
    validatorUrl: null,
  });
});
`;

/**
 * Where Swagger UI's files are: beside the bundle when built (scripts/build.mjs
 * copies them to dist/swagger-ui-dist), else the installed swagger-ui-dist
 * package. Undefined when neither is there.
 */
export function swaggerUiDir(): string | undefined {
  const bundled = path.join(__dirname, "swagger-ui-dist");
  if (fs.existsSync(path.join(bundled, "swagger-ui-bundle.js"))) return bundled;
  try {
    return path.dirname(require.resolve("swagger-ui-dist/package.json"));
  } catch {
    return undefined;
  }
}

let documentText: string | undefined;

/** The description as JSON text, generated on first use and kept. */
export function openApiJson(): string {
  documentText ??= JSON.stringify(buildOpenApiDocument());
  return documentText;
}

/**
 * `GET /openapi.json` (the OpenAPI 3.1 description, generated from the
 * request schemas) and `GET /docs` (the API reference page: Swagger UI from
 * the installed package, no CDN, so it works offline). Both open: mounted
 * before the key check.
 */
export function docsRoutes(): Router {
  const r = Router();
  const dir = swaggerUiDir();

  r.get("/openapi.json", (_req, res) => {
    res.setHeader("cache-control", "public, max-age=300");
    res.type("application/json").send(openApiJson());
  });

  r.get("/docs", (_req, res) => {
    if (!dir) throw new HttpProblem(503, "API reference unavailable", "swagger-ui-dist is not installed; the description is at /openapi.json");
    res.setHeader("content-security-policy", PAGE_CSP);
    res.type("text/html").send(PAGE);
  });

  r.get("/docs/assets/:file", (req, res, next) => {
    const file = String(req.params.file);
    if (file === "init.js") {
      res.setHeader("cache-control", "public, max-age=300");
      return res.type("text/javascript").send(INIT);
    }
    if (!ASSETS.has(file)) throw new HttpProblem(404, "Not found", `no asset ${file}`);
    if (!dir) throw new HttpProblem(503, "API reference unavailable", "swagger-ui-dist is not installed");
    // Swagger UI's files change only with the package: a day in any cache (the security middleware's no-store replaced).
    res.setHeader("cache-control", "public, max-age=86400");
    res.sendFile(file, { root: dir, cacheControl: false }, (err) => {
      if (err) next(new HttpProblem(503, "API reference unavailable", `the asset ${file} could not be read`));
    });
  });
  return r;
}
