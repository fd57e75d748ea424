#!/usr/bin/env bash
# The demo game: created once in ./demo (SQLite, authentication off), then the daemon runs it.
# Everything the game sends goes to the demo's own mailbox (python -m mailer.sink on 127.0.0.1:8026,
# a Maildir in ./demo/mailbox): nothing leaves the machine.
# NOMIC_DEMO_RULESET=blognomic (or suber, or bnomic) starts that game instead of Imperial Nomic, in ./demo-RULESET.
# The game starts today (00:00 UTC) and its first mail is received now.
# Ports (HOST:PORT): NOMIC_DEMO_SMTP (8025), NOMIC_DEMO_LMTP (8024), NOMIC_DEMO_HTTP (8000) and the
# mailbox NOMIC_DEMO_MAILBOX (8026), all on 127.0.0.1 unless given. SIGINT or SIGTERM stops the daemon too.
set -euo pipefail
cd "$(dirname "$0")/.."
RULESET=${NOMIC_DEMO_RULESET:-imperial}
case "$RULESET" in
    imperial) CONFIG=deploy/demo-game.toml; MAIL=deploy/demo-mail; GAME=${NOMIC_GAME:-demo} ;;
    blognomic|suber|bnomic) CONFIG=deploy/demo-$RULESET.toml; MAIL=deploy/demo-mail/$RULESET; GAME=${NOMIC_GAME:-demo-$RULESET} ;;
    *) echo "demo: NOMIC_DEMO_RULESET must be imperial, blognomic, suber or bnomic, not '$RULESET'" >&2; exit 2 ;;
esac
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

case "$RULESET" in
    imperial) PLAY='mail ths@imperial.test over SMTP on '"$SMTP"' (any mail client, swaks, or Python smtplib),
    e.g. from alice@wonder.land, Subject "Proposal: More cake". The answer says which number it got;
    judge it as the Emperor: mail from tie@imperial.test with a line "Accept N" (N: the number in the answer).' ;;
    blognomic) PLAY='mail ths@blog.test over SMTP on '"$SMTP"' (any mail client, swaks, or Python smtplib):
    "Join" from any address makes you a Pactmaker; then Subject "Proposal: TITLE", and lines "FOR N" / "AGAINST N".
    Alice and Bob have joined; Proposal 1 by Alice, with two FOR, is enacted by the clock once its 12 hours are up.
    The Admin is admin@blog.test ("Enact N", "Fail N").' ;;
    suber) PLAY='mail ths@suber.test over SMTP on '"$SMTP"' (any mail client, swaks, or Python smtplib).
    The players are alice@, bob@ and carol@suber.test (every From is believed: write as any of them).
    Alice, on turn, has proposed 301 "Hello": as Alice, mail "Call vote 301"; then each player "Vote yes 301"
    (or "Vote no 301"). When all have voted the turn passes to Bob: Subject "Proposal: NAME", body "Enact rule: TEXT".' ;;
    bnomic) PLAY='mail ths@bnomic.test over SMTP on 127.0.0.1:8025 (any mail client, swaks, or Python smtplib).
    The Players are alice@, bob@ and carol@bnomic.test; anyone else joins with "Join as NAME".
    Alice holds every Ministry and has started the Clock; Bob has proposed 1 "Tea". Every 00:00 UTC moves
    the Clock; from Ballotday (nday 9) vote "FOR 1" (or AGAINST, ABSTAIN); as Alice, "Publish ballot", then "Clock on".' ;;
esac
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
