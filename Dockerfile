# carender serve in a container (issue 25; docs/CARENDER.md, "serve").
#   docker build -t carender .
#   docker run --rm -p 8080:8080 carender --slots 4
# Rendering needs no GPU (Mesa's llvmpipe). Written by reading, not built here (no Docker engine
# where it was written); both stages are Debian bookworm, as tools/install-deps.sh expects.

# Build: Swift 6.3 on bookworm, the project's system packages, a release carender with the Swift
# runtime linked in statically (the run stage has no Swift toolchain).
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY tools/install-deps.sh tools/install-deps.sh
RUN sh tools/install-deps.sh && rm -rf /var/lib/apt/lists/*
COPY . .
RUN swift build -c release --product carender --static-swift-stdlib \
    && install -D "$(swift build -c release --show-bin-path)/carender" /out/carender

# Run: the same system packages (the libraries carender links, Mesa's llvmpipe and EGL, ffmpeg,
# fonts), the binary, an unprivileged user.
FROM debian:bookworm-slim
COPY tools/install-deps.sh /tmp/install-deps.sh
RUN sh /tmp/install-deps.sh && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh \
    && useradd --system --create-home --home-dir /home/carender carender
COPY --from=build /out/carender /usr/local/bin/carender
USER carender
WORKDIR /home/carender
EXPOSE 8080
# SIGTERM (docker stop) lets accepted requests finish, then exits 0: give it --timeout's time.
STOPSIGNAL SIGTERM
ENTRYPOINT ["carender", "serve", "--host", "0.0.0.0"]
