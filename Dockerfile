# syntax=docker/dockerfile:1
#
# One image for every Engram topology: all-in-one (the default, TARGETS=all)
# or one service per container (TARGETS=<service>, see deploy/topology.yaml).
#
#   docker build -t engram .
#   docker run -p 8080:8080 -v engram-data:/data engram            # all-in-one
#   docker run -e TARGETS=recall ... engram                         # one service
#
# Stage 1 builds the esbuild bundles (dist/) and a production node_modules
# holding only the packages the bundles leave external (the root package.json's
# dependencies: native addons and packages that load their own files).
# Stage 2 is the runtime: dist/, protos/, that node_modules, a non-root user.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when its prebuilt binary cannot be fetched.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
ENV CI=true
# pnpm of exactly the version in package.json "packageManager" (as .ci/run installs it).
COPY package.json ./
RUN npm install -g "pnpm@$(node -p "require('./package.json').packageManager.split('@')[1]")" && pnpm --version
# Dependencies first (cached while the lockfile is unchanged): `pnpm fetch` needs only the lockfile.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch --frozen-lockfile
COPY . .
# A source build of better-sqlite3 uses the image's Node headers when present (as .ci/run does), not a download.
RUN if [ -f /usr/local/include/node/node.h ]; then export npm_config_nodedir=/usr/local; fi \
  && pnpm install --frozen-lockfile --offline \
  && pnpm build
# Production node_modules for the runtime: the root project's dependencies only
# (exactly the bundles' externals), installed from the same lockfile and store.
RUN rm -rf node_modules \
  && pnpm install --frozen-lockfile --offline --prod --filter engram \
  && node -e "for (const d of Object.keys(require('./package.json').dependencies)) if (!require('fs').existsSync('node_modules/' + d + '/package.json')) throw new Error(d + ' is missing')"

FROM ${NODE_IMAGE} AS runtime
ARG ENGRAM_UID=10001
ARG ENGRAM_GID=10001
RUN groupadd --gid "${ENGRAM_GID}" engram \
  && useradd --uid "${ENGRAM_UID}" --gid engram --home-dir /app --no-create-home --shell /usr/sbin/nologin engram \
  && mkdir -p /data && chown engram:engram /data
WORKDIR /app
ENV NODE_ENV=production \
  NODE_OPTIONS=--enable-source-maps \
  TARGETS=all \
  ENGRAM_DATA_DIR=/data \
  PORT=8080 \
  HOST=0.0.0.0
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/protos ./protos
COPY --from=build /src/dist ./dist
# The shipped sentence-embedding model (found by walking up from dist/).
COPY --from=build /src/libs/embed-model/model ./libs/embed-model/model
USER 10001:10001
VOLUME ["/data"]
# gateway HTTP; gRPC of ingestion, pipeline-worker, memories, recall, connections; Prometheus of the gRPC services.
EXPOSE 8080 50051 50052 50053 50054 50055 9464
# Works for any TARGETS: /readyz when the gateway runs here, else grpc.health.v1 on each service's port.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/healthcheck.js"]
# exec form: node is PID 1 and receives SIGTERM itself (graceful shutdown within 10 s).
ENTRYPOINT ["node", "dist/all-in-one.js"]
