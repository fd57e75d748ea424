#!/usr/bin/env bash
# The demo game: created once in ./demo (SQLite, authentication off), then the daemon runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${NOMIC_GAME:-demo}
if [ ! -f "$GAME/game.toml" ]; then
    nomic init "$GAME" --config deploy/demo-game.toml
    nomic ingest --game "$GAME" --at 2026-01-05T01:00:00Z deploy/demo-mail/*.eml
fi
cat <<EOM
Demo game in $GAME (authentication off: every From is believed).
  Mail ths@imperial.test over SMTP on 127.0.0.1:8025 (any mail client, swaks, or Python's smtplib),
  e.g. Subject "Proposal: More cake"; the Emperor is tie@imperial.test ("Accept 4").
  Answers wait in the outbox (no relay in the demo):  nomic outbox --game $GAME
  The site: http://127.0.0.1:8000/
EOM
exec nomic serve --game "$GAME" --smtp 127.0.0.1:8025 --lmtp 127.0.0.1:8024 --http 127.0.0.1:8000
