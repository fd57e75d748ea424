#!/usr/bin/env bash
# The demo game: created once in ./demo (SQLite, authentication off), then the daemon runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${NOMIC_GAME:-demo}
if [ ! -f "$GAME/game.toml" ]; then
    nomic init "$GAME" --config deploy/demo-game.toml
    nomic ingest --game "$GAME" --at 2026-01-05T01:00:00Z deploy/demo-mail/*.eml
fi
echo "Demo game in $GAME. Send mail with:  swaks --server 127.0.0.1:8025 --to ths@imperial.test ..."
echo "Site: http://127.0.0.1:8000/"
exec nomic serve --game "$GAME" --smtp 127.0.0.1:8025 --lmtp 127.0.0.1:8024 --http 127.0.0.1:8000
