#!/bin/sh
# The official redis image's start, as far as deploy/compose.yaml uses it: redis-server
# with the given options, reachable from other containers (the official build turns
# protected mode off), as the redis user.
set -eu
if [ "$1" = redis-server ]; then
  shift
  exec setpriv --reuid=redis --regid=redis --init-groups redis-server --protected-mode no \
    --dir /tmp "$@"
fi
exec "$@"
