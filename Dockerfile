# syntax=docker/dockerfile:1
# tankbot: build with cgo (SQLite through go-sqlite3), run on slim Debian as
# a non-root user with the database on the /data volume.

FROM golang:1.26-bookworm AS build
WORKDIR /src
# Modules first, so source edits do not refetch them.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/tankbot ./cmd/tankbot

FROM debian:bookworm-slim
# CA certificates for HTTPS to Discord; tzdata for correct local times.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin tankbot \
 && mkdir -p /data && chown tankbot:tankbot /data
COPY --from=build /out/tankbot /usr/local/bin/tankbot
USER tankbot
VOLUME ["/data"]
# Configuration comes from the environment (TANKBOT_TOKEN, TANKBOT_APP_ID,
# ...); see config.example.yaml for every setting.
ENV TANKBOT_DB=/data/tankbot.db \
    TANKBOT_LOG_FORMAT=json \
    TANKBOT_METRICS_LISTEN=:9090
WORKDIR /data
# `tankbot serve` (the HTTP Interactions Endpoint) listens here: publish it
# with docker run -p 8080:8080. `tankbot run` (the default) needs no port.
EXPOSE 8080
# /metrics (Prometheus), /healthz and /readyz for run and serve: publish it
# only to your monitoring network (docs/operations.md).
EXPOSE 9090
# The slim image has no curl or wget: the binary checks itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/tankbot", "healthcheck", "--url", "http://127.0.0.1:9090/readyz"]
# run stops cleanly on SIGTERM (docker stop): in-flight answers finish, the
# database is closed.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/tankbot"]
CMD ["run"]
