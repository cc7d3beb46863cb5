#!/usr/bin/env bash
# Container health check without curl in the image: GET http://127.0.0.1:PORT/PATH with bash's /dev/tcp and succeed
# only on a 200 status. Used by the images' HEALTHCHECK and by the Kubernetes exec probes of the recorder.
#   healthcheck.sh PORT PATH
set -euo pipefail
port="${1:?usage: healthcheck.sh PORT PATH}"
path="${2:?usage: healthcheck.sh PORT PATH}"
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3
IFS= read -r -t 3 status <&3
case "$status" in
    "HTTP/1."?" 200"*) exit 0 ;;
    *) echo "GET $path on port $port: ${status:-no answer}" >&2; exit 1 ;;
esac
