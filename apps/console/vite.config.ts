import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The graph chunk (cytoscape, loaded on demand) is about 450 kB; the main chunk stays well under.
// Served by the gateway at /console (services/gateway/src/http/console.ts): every asset URL starts with /console/.
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 460 },
});
