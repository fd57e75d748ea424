#!/usr/bin/env bash
# The demo game: created once in ./demo (SQLite, authentication off), then the daemon runs it.
# Everything the game sends goes to the demo's own mailbox (python -m mailer.sink on 127.0.0.1:8026,
# a Maildir in ./demo/mailbox): nothing leaves the machine.
# NOMIC_DEMO_RULESET=RULESET starts that ruleset's demo instead of Imperial Nomic's, in ./demo-RULESET: any
# ruleset with a deploy/demo-RULESET.toml and its mail in deploy/demo-mail/RULESET/ (*.eml, and PLAY.txt: how to play).
# The game starts today (00:00 UTC) and its first mail is received now.
# Ports (HOST:PORT): NOMIC_DEMO_SMTP (8025), NOMIC_DEMO_LMTP (8024), NOMIC_DEMO_HTTP (8000) and the
# mailbox NOMIC_DEMO_MAILBOX (8026), all on 127.0.0.1 unless given. SIGINT or SIGTERM stops the daemon too.
set -euo pipefail
cd "$(dirname "$0")/.."
RULESET=${NOMIC_DEMO_RULESET:-imperial}
if [ "$RULESET" = imperial ]; then
    CONFIG=deploy/demo-game.toml; MAIL=deploy/demo-mail; GAME=${NOMIC_GAME:-demo}
else
    CONFIG=deploy/demo-$RULESET.toml; MAIL=deploy/demo-mail/$RULESET; GAME=${NOMIC_GAME:-demo-$RULESET}
fi
if [[ ! "$RULESET" =~ ^[a-z0-9_]+$ ]] || [ ! -f "$CONFIG" ]; then
    DEMOS=imperial
    for file in deploy/demo-*.toml; do
        name=${file#deploy/demo-}; name=${name%.toml}
        [ "$name" = game ] || DEMOS="$DEMOS, $name"
    done
    echo "demo: NOMIC_DEMO_RULESET must be one of $DEMOS (each has a deploy/demo-RULESET.toml), not '$RULESET'" >&2
    exit 2
fi
SMTP=${NOMIC_DEMO_SMTP:-127.0.0.1:8025}
LMTP=${NOMIC_DEMO_LMTP:-127.0.0.1:8024}
HTTP=${NOMIC_DEMO_HTTP:-127.0.0.1:8000}
MAILBOX=${NOMIC_DEMO_MAILBOX:-127.0.0.1:8026}   # the game's [outbox] relay (deploy/demo-*.toml say 127.0.0.1:8026)
if [ ! -f "$GAME/game.toml" ]; then
    nomic init "$GAME" --config "$CONFIG" --start "$(date -u +%Y-%m-%dT00:00:00Z)"
    sed -i "s|^relay = \"127.0.0.1:8026\"|relay = \"$MAILBOX\"|" "$GAME/game.toml"
    sed -i "s|^site_url = \"http://127.0.0.1:8000/\"|site_url = \"http://$HTTP/\"|" "$GAME/game.toml"
    nomic ingest --game "$GAME" "$MAIL"/*.eml
fi
if grep -q '^seed = "demo-seed-not-secret"' "$GAME/game.toml"; then   # made before init wrote random seeds
    echo "demo: $GAME/game.toml has the demos' public seed, which nomic refuses; remove $GAME to start afresh" >&2
    exit 2
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

PLAY=$(sed "s|{SMTP}|$SMTP|g" "$MAIL/PLAY.txt")
cat <<EOM
Demo game of $RULESET in $GAME (authentication off: every From is believed).
  Play: $PLAY
  Read the answers: everything the game sends lands in the demo mailbox $GAME/mailbox (a Maildir):
    nomic outbox --game $GAME            lists what was sent, numbered
    nomic outbox --game $GAME --show N   prints mail N (headers and text)
    mutt -f $GAME/mailbox                or any mail client that opens a Maildir
  Every mail command and game.toml key: docs/reference.md. The site: http://$HTTP/
EOM
nomic serve --game "$GAME" --smtp "$SMTP" --lmtp "$LMTP" --http "$HTTP" &
SERVE=$!
trap 'kill -TERM $SERVE 2>/dev/null' INT TERM   # the daemon stops with the demo, and frees its ports
status=0
wait $SERVE || status=$?
if [ $status -gt 128 ] && kill -0 $SERVE 2>/dev/null; then   # a trapped signal ended the wait: the daemon is stopping
    status=0
    wait $SERVE || status=$?
fi
exit $status
