"""The command language of CONTRACT.md: subject and body lines -> engine commands.

Each line pattern is a regular expression over one stripped line, matched
case-insensitively. The subject is read first, then every body line that is
not quoted text or a signature.

Bounded like everything a stranger can send: a line longer than ``MAX_LINE``
is never a command (no pattern runs over it), a number has at most 9 digits,
at most ``MAX_COMMANDS`` commands are read from one message and at most
``MAX_NOT_UNDERSTOOD`` unread lines are quoted back.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.commands import (
    AgreeSwapCmd, Command, DigestCmd, DirectiveCmd, JudgeCmd, NewDayCmd, PointOfOrderCmd,
    ProclamationCmd, ProposalCmd, ReportCmd, RevokeDirectiveCmd, RewriteCmd, ScoreClaim,
    SubscribeCmd, SwapCmd, TagCmd, UnsubscribeCmd, WhapTivolCmd,
)
from engine.state import Request

I = re.I
MAX_LINE = 1000  # characters: no command is longer
MAX_COMMANDS = 100  # commands read from one message
MAX_NOT_UNDERSTOOD = 20  # lines quoted back as not understood
SUBJECT_PROPOSAL = re.compile(r"^\s*proposal\s*:\s*(.*)$", I)
SUBJECT_POINT = re.compile(r"^\s*point\s+of\s+order\s*:\s*(.*)$", I)
SUBJECT_PROCLAMATION = re.compile(r"^\s*proclamation\s*:\s*(.*)$", I)
REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|fwd?)\s*(\[\d+\])?\s*:\s*)+", I)
REPLY = re.compile(r"^\s*(re|aw|sv)\s*(\[\d+\])?\s*:", I)
# An office's passphrase line (see mailer.auth); never read as a command nor kept in a text.
PASSPHRASE = re.compile(r"^\s*passphrase\s*:\s*(.*?)\s*$", I)

# Lines that are requests inside a Proposal.
REQUESTS: list[tuple[re.Pattern[str], callable]] = [
    (re.compile(r"^raise\s+section\s+(\d{1,9})$", I), lambda m: Request(kind="raise", section=int(m[1]))),
    (re.compile(r"^shave\s+section\s+(\d{1,9})$", I), lambda m: Request(kind="shave", section=int(m[1]))),
    (re.compile(r"^rotate\s+(left|right)$", I), lambda m: Request(kind="rotate", direction=m[1].lower())),
    (re.compile(r"^sealant$", I), lambda m: Request(kind="sealant")),
    (re.compile(r"^become\s+ff$", I), lambda m: Request(kind="become_ff")),
    (re.compile(r"^defend$", I), lambda m: Request(kind="defend")),
    (re.compile(r"^vandali[sz]e\s+(\S+(?:\s+\S+)*?)\s+section\s+(\d{1,9})$", I),
     lambda m: Request(kind="vandalize", target=m[1], section=int(m[2]))),
]
AREA = re.compile(r"^area\s*:\s*(.+)$", I)
CLAIM = re.compile(r"^score\s+of\s+(.+?)\s+should\s+be\s+(-?\d{1,9})$", I)

# Lines that are commands of their own, in any message.
JUDGE = re.compile(r"^(accept|reject|ignore)(?:\s+#?(\d{1,9}))?(?:\s+because\s*:?\s*(.*))?$", I)
LINES: list[tuple[re.Pattern[str], callable]] = [
    (JUDGE, lambda m: JudgeCmd(verdict=m[1].lower(), number=int(m[2]) if m[2] else None,
                               reason=(m[3] or None))),
    (re.compile(r"^directive\s*:\s*(.+)$", I), lambda m: DirectiveCmd(area=m[1].strip())),
    (re.compile(r"^revoke\s+directive$", I), lambda m: RevokeDirectiveCmd()),
    (re.compile(r"^new\s+day$", I), lambda m: NewDayCmd()),
    (re.compile(r"^whap\s+tivol$", I), lambda m: WhapTivolCmd()),
    (re.compile(r"^swap\s+sections?\s+(\d{1,9})\s*-\s*(\d{1,9})\s+with\s+(.+?)\s+sections?\s+(\d{1,9})\s*-\s*(\d{1,9})$", I),
     lambda m: SwapCmd(first=int(m[1]), last=int(m[2]), partner=m[3].strip(),
                       partner_first=int(m[4]), partner_last=int(m[5]))),
    (re.compile(r"^agree\s+swap\s+#?(\d{1,9})$", I), lambda m: AgreeSwapCmd(number=int(m[1]))),
    (re.compile(r"^report\s+(.+)$", I), lambda m: ReportCmd(player=m[1].strip())),
    (re.compile(r"^tag\s+(.+)$", I), lambda m: TagCmd(player=m[1].strip())),
    (re.compile(r"^subscribe$", I), lambda m: SubscribeCmd()),
    (re.compile(r"^unsubscribe$", I), lambda m: UnsubscribeCmd()),
    (re.compile(r"^digest\s+(on|off)$", I), lambda m: DigestCmd(on=m[1].lower() == "on")),
    (re.compile(r"^digest\s+(plain|mime)$", I), lambda m: DigestCmd(on=True, plain=m[1].lower() == "plain")),
]
REWRITE = re.compile(r"^rewrite\s+#?(\d{1,9})\s*:?\s*$", I)
# The words a command line can start with, read off the patterns: a line starting with any other
# word is no command, and no pattern need run over it (a stranger's mail may have thousands).
FIRST_WORDS = frozenset(word for pattern, _ in LINES
                        for word in re.match(r"\^\(?([a-z|]+)", pattern.pattern)[1].split("|"))


@dataclass
class Reading:
    commands: list[Command] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)


def clean_subject(subject: str) -> str:
    """Drop reply and forward prefixes ('Re: ', 'Fwd: ', 'AW: ')."""
    return REPLY_PREFIX.sub("", subject or "").strip()


def read(subject: str, body: str, written: str | None = None, cut: str = "") -> Reading:
    """Parse a message's subject and (already unquoted) body into commands.

    ``written`` is the body kept as written (indentation and all), used as the
    text of a submission; it defaults to ``body``. A reply ("Re: Proposal: X")
    is not a new submission: its lines are read as commands about the thread.
    ``cut`` says why the body is only the start of the message (mailer.message's
    bounds): its lines are read, but it makes no submission, whose text would be cut.
    """
    body, written = without_passphrase(body), without_passphrase(body if written is None else written)
    is_reply = bool(REPLY.match(subject or ""))
    subject = clean_subject(subject)[:MAX_LINE]
    for pattern, make in ((SUBJECT_PROPOSAL, _proposal), (SUBJECT_POINT, _point),
                          (SUBJECT_PROCLAMATION, _proclamation)):
        m = None if is_reply else pattern.match(subject)
        if m and cut:
            return Reading(not_understood=[f"{subject} ({cut}; nothing submitted)"])
        if m:
            return make(m[1].strip(), body, subject, written)
    reading = Reading()
    line_cmd = _line_command(subject)
    if line_cmd is not None and not _repeats(subject, body):
        reading.commands.append(line_cmd)
    _read_lines(body, reading)
    if cut:
        reading.not_understood.append(f"(the rest of the message: {cut})")
    return reading


def _repeats(subject: str, body: str) -> bool:
    """Whether a body line says the subject's command again ("Subscribe" in both): it is read once."""
    said = " ".join(subject.split()).lower()
    return any(" ".join(line.split()).lower() == said for line in _lines(body))


def _proposal(title: str, body: str, subject: str, written: str) -> Reading:
    cmd = ProposalCmd(title=title, text=written.strip("\n"), line=subject)
    reading = Reading(commands=[cmd])
    for line in _short_lines(body):
        m = AREA.match(line)
        if m:
            cmd.area = m[1].strip()
            continue
        for pattern, make in REQUESTS:
            rm = pattern.match(line)
            if rm:
                cmd.requests.append(make(rm))
                break
    return reading


def _point(title: str, body: str, subject: str, written: str) -> Reading:
    cmd = PointOfOrderCmd(title=title, text=written.strip("\n"), line=subject)
    for line in _short_lines(body):
        m = CLAIM.match(line)
        if m:
            cmd.claims.append(ScoreClaim(player=m[1].strip(), score=int(m[2])))
    return Reading(commands=[cmd])


def _proclamation(title: str, body: str, subject: str, written: str) -> Reading:
    return Reading(commands=[ProclamationCmd(title=title, text=written.strip("\n"), line=subject)])


def _line_command(line: str) -> Command | None:
    if len(line) > MAX_LINE or _first_word(line) not in FIRST_WORDS:
        return None
    for pattern, make in LINES:
        m = pattern.match(line)
        if m:
            cmd = make(m)
            cmd.line = line
            return cmd
    return None


def _read_lines(body: str, reading: Reading) -> None:
    lines = _lines(body)
    unread: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if len(reading.commands) >= MAX_COMMANDS:
            reading.not_understood.append(f"(the {len(lines) - i:,} lines after the first {MAX_COMMANDS} "
                                          "commands: one message carries at most that many; not read)")
            break
        m = REWRITE.match(line)
        if m:  # "Rewrite N:" takes the rest of the body as the new text
            rest = "\n".join(lines[i + 1:]).strip()
            reading.commands.append(RewriteCmd(number=int(m[1]), text=rest, line=line))
            return
        cmd = _line_command(line)
        area = AREA.match(line)
        if cmd is not None:
            reading.commands.append(cmd)
        elif area and reading.commands and isinstance(reading.commands[-1], JudgeCmd):
            reading.commands[-1].area = area[1].strip()  # rule 3: the Emperor corrects the area
        else:
            unread.append(line)
        i += 1
    reading.not_understood[:0] = _quoted_back(unread)


def _quoted_back(unread: list[str]) -> list[str]:
    """The lines not understood, as the answer quotes them: the first few, each cut short."""
    shown = [ln if len(ln) <= 200 else ln[:200] + "..." for ln in unread[:MAX_NOT_UNDERSTOOD]]
    if len(unread) > MAX_NOT_UNDERSTOOD:
        shown.append(f"(and {len(unread) - MAX_NOT_UNDERSTOOD:,} more lines like these)")
    return shown


def _first_word(line: str) -> str:
    return line[:12].split(None, 1)[0].split(":", 1)[0].lower() if line.strip() else ""


def without_passphrase(text: str) -> str:
    return "\n".join(ln for ln in text.split("\n") if not PASSPHRASE.match(ln))


def passphrase(text: str) -> str | None:
    """The passphrase given on a "Passphrase: ..." line, if any."""
    for line in text.split("\n"):
        m = PASSPHRASE.match(line)
        if m:
            return m[1]
    return None


def _lines(body: str) -> list[str]:
    """The body's non-blank lines, stripped."""
    return [ln.strip() for ln in body.splitlines() if ln.strip()]


def _short_lines(body: str) -> list[str]:
    """The lines that may be requests or claims: those within ``MAX_LINE``."""
    return [ln for ln in _lines(body) if len(ln) <= MAX_LINE]
