# costdb: a static binary on a distroless base, run as a non-root user.
#
#   docker build -t costdb --build-arg REVISION=$(git rev-parse HEAD) .
#   docker run -d -p 127.0.0.1:8080:8080 -v costdb-data:/data costdb
#   docker exec <container> costdb users add --company "Construtora Alfa" --email eng@alfa.com.br
#
# The data (costdb.db, its .keys and .admin files) lives in the /data volume.
# Configuration: COSTDB_* variables (docs/operations.md).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG REVISION=""
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X main.revision=${REVISION}" \
      -o /out/costdb ./cmd/costdb \
 && mkdir -p /out/data /out/keys

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/costdb /usr/local/bin/costdb
# The volumes' mount points, owned by the non-root user (uid 65532), so
# that new named volumes start writable by it.
COPY --from=build --chown=65532:65532 /out/data /data
COPY --from=build --chown=65532:65532 /out/keys /keys
USER 65532:65532
ENV COSTDB_DB=/data/costdb.db \
    COSTDB_ADDR=0.0.0.0:8080 \
    COSTDB_ADMIN_ADDR=127.0.0.1:8081 \
    COSTDB_LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 8080
# /readyz through the binary itself: the image has no shell and no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["/usr/local/bin/costdb", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/costdb"]
CMD ["serve"]
