import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Served by the gateway at /console (services/gateway/src/http/console.ts): every asset URL starts with /console/.
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
});
