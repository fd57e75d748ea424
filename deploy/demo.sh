#!/usr/bin/env bash
# The demo game: created once in ./demo (SQLite, authentication off), then the daemon runs it.
# Everything the game sends goes to the demo's own mailbox (python -m mailer.sink on 127.0.0.1:8026,
# a Maildir in ./demo/mailbox): nothing leaves the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
GAME=${NOMIC_GAME:-demo}
MAILBOX=127.0.0.1:8026   # [outbox] relay in deploy/demo-game.toml
if [ ! -f "$GAME/game.toml" ]; then
    nomic init "$GAME" --config deploy/demo-game.toml
    nomic ingest --game "$GAME" --at 2026-01-05T01:00:00Z deploy/demo-mail/*.eml
fi
grep -q "^relay = \"$MAILBOX\"" "$GAME/game.toml" ||   # a demo made before the mailbox existed
    echo "demo: $GAME/game.toml does not send to the demo mailbox ([outbox] relay); remove $GAME to start afresh" >&2

python3 -m mailer.sink "$MAILBOX" "$GAME/mailbox" &
SINK=$!
trap 'kill $SINK 2>/dev/null' EXIT
for _ in $(seq 100); do   # the mailbox listens before the daemon sends anything
    (exec 3<>"/dev/tcp/${MAILBOX%:*}/${MAILBOX#*:}") 2>/dev/null && break
    kill -0 $SINK 2>/dev/null || { echo "demo: the mailbox could not start on $MAILBOX" >&2; exit 1; }
    sleep 0.1
done

cat <<EOM
Demo game in $GAME (authentication off: every From is believed).
  Play: mail ths@imperial.test over SMTP on 127.0.0.1:8025 (any mail client, swaks, or Python's smtplib),
    e.g. from alice@wonder.land, Subject "Proposal: More cake". The answer says which number it got;
    judge it as the Emperor: mail from tie@imperial.test with a line "Accept N" (N: the number in the answer).
  Read the answers: everything the game sends lands in the demo mailbox $GAME/mailbox (a Maildir):
    nomic outbox --game $GAME            lists what was sent, numbered
    nomic outbox --game $GAME --show N   prints mail N (headers and text)
    mutt -f $GAME/mailbox                or any mail client that opens a Maildir
  Every mail command and game.toml key: docs/reference.md. The site: http://127.0.0.1:8000/
EOM
nomic serve --game "$GAME" --smtp 127.0.0.1:8025 --lmtp 127.0.0.1:8024 --http 127.0.0.1:8000
