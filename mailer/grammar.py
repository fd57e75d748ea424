"""Subject and body lines -> engine commands, by a ruleset's declarations (engine/commands.py).

Each line pattern is a regular expression over one stripped line, matched
case-insensitively. The subject is read first, then every body line that is
not quoted text or a signature. An Imperial game never reads a vote: each
game reads with its own ruleset's ``Grammar``.

Bounded like everything a stranger can send: a line longer than ``MAX_LINE``
is never a command (no pattern runs over it), a number has at most 9 digits,
at most ``MAX_COMMANDS`` commands are read from one message (the lines a block or a prefix
wraps counted too) and at most ``MAX_NOT_UNDERSTOOD`` unread lines are quoted back. A wrapping
line wraps plain command lines only: one level of nesting, never more.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.commands import Amend, Block, Cmd, Declaration, Line, Prefix, Rest, Subject

I = re.I
MAX_LINE = 1000  # characters: no command is longer
MAX_COMMANDS = 100  # commands read from one message
MAX_NOT_UNDERSTOOD = 20  # lines quoted back as not understood
REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|fwd?)\s*(\[\d+\])?\s*:\s*)+", I)
REPLY = re.compile(r"^\s*(re|aw|sv)\s*(\[\d+\])?\s*:", I)
# An office's passphrase line (see mailer.auth); never read as a command nor kept in a text.
PASSPHRASE = re.compile(r"^\s*passphrase\s*:\s*(.*?)\s*$", I)


@dataclass
class Reading:
    commands: list[Cmd] = field(default_factory=list)
    not_understood: list[str] = field(default_factory=list)


def clean_subject(subject: str) -> str:
    """Drop reply and forward prefixes ('Re: ', 'Fwd: ', 'AW: ')."""
    return REPLY_PREFIX.sub("", subject or "").strip()


class Grammar:
    """One ruleset's command language, read off its declarations once (an object the game owns)."""

    def __init__(self, declarations: tuple[Declaration, ...]) -> None:
        reads = [r for d in declarations for r in d.reads]
        self.subjects = [r for r in reads if isinstance(r, Subject)]
        self.lines = [r for r in reads if isinstance(r, Line)]
        self.rests = [r for r in reads if isinstance(r, Rest)]
        self.amends = [r for r in reads if isinstance(r, Amend)]
        self.blocks = [r for r in reads if isinstance(r, Block)]
        self.prefixes = [r for r in reads if isinstance(r, Prefix)]
        for wrapping in [*(b.start for b in self.blocks), *(p.pattern for p in self.prefixes)]:
            _leading_words(wrapping)  # a wrapping line starts with a literal word too
        # The words a command line can start with, read off the patterns: a line starting with any
        # other word is no command, and no pattern need run over it (a stranger's mail may have thousands).
        self.first_words = frozenset(word for r in self.lines for word in _leading_words(r.pattern))

    def read(self, subject: str, body: str, written: str | None = None, cut: str = "") -> Reading:
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
        for reader in self.subjects:
            m = None if is_reply else reader.pattern.match(subject)
            if m and cut:
                return Reading(not_understood=[f"{subject} ({cut}; nothing submitted)"])
            if m:
                cmd = reader.build(m[1].strip(), _short_lines(body), written.strip("\n"))
                cmd.line = subject
                return Reading(commands=[cmd])
        reading = Reading()
        line_cmd = self._line_command(subject)
        if line_cmd is not None and not _repeats(subject, body):
            reading.commands.append(line_cmd)
        self._read_lines(body, reading)
        if cut:
            reading.not_understood.append(f"(the rest of the message: {cut})")
        return reading

    def _line_command(self, line: str) -> Cmd | None:
        if len(line) > MAX_LINE or _first_word(line) not in self.first_words:
            return None
        for reader in self.lines:
            m = reader.pattern.match(line)
            if m:
                cmd = reader.build(m)
                cmd.line = line
                return cmd
        return None

    def _rest(self, line: str, lines: list[str]) -> Cmd | None:
        """A command that takes the rest of the body as its text ("Rewrite N:")."""
        for reader in self.rests:
            m = reader.pattern.match(line)
            if m:
                cmd = reader.build(m, "\n".join(lines).strip())
                cmd.line = line
                return cmd
        return None

    def _amends(self, line: str, before: Cmd | None) -> bool:
        """Whether ``line`` adds to the command before it ("Area: X" after a judgment), and does so."""
        for reader in self.amends:
            m = reader.pattern.match(line)
            if m and before is not None and before.kind == reader.to:
                reader.apply(before, m)
                return True
        return False

    def _read_lines(self, body: str, reading: Reading) -> None:
        lines = _lines(body)
        unread: list[str] = []
        read = 0  # commands read, those a block or a prefix wraps included
        i = 0
        while i < len(lines):
            line = lines[i]
            if read >= MAX_COMMANDS:
                reading.not_understood.append(f"(the {len(lines) - i:,} lines after the first {MAX_COMMANDS} "
                                              "commands: one message carries at most that many; not read)")
                break
            rest = self._rest(line, lines[i + 1:]) if len(line) <= MAX_LINE else None
            if rest is not None:
                reading.commands.append(rest)
                return
            block = self._block(line, lines, i, MAX_COMMANDS - read)
            if block is not None:
                reading.commands.append(block[0])
                i, read = block[1], read + 1 + block[2]
                continue
            prefixed = self._prefixed(line)
            cmd = prefixed or self._line_command(line)
            if cmd is not None:
                reading.commands.append(cmd)
                read += 2 if prefixed else 1
            elif not self._amends(line, reading.commands[-1] if reading.commands else None):
                unread.append(line)
            i += 1
        reading.not_understood[:0] = _quoted_back(unread)

    def _block(self, line: str, lines: list[str], at: int, room: int) -> tuple[Cmd, int, int] | None:
        """A block starting at ``lines[at]``: its command, the index after its end line and how many
        commands it wraps. A line between that is no one-line command (a nested block or prefix
        included), the lines past ``room`` commands and a missing end line are kept as unread."""
        reader = next((b for b in self.blocks if len(line) <= MAX_LINE and b.start.match(line)), None)
        if reader is None:
            return None
        inner: list[Cmd] = []
        unread: list[str] = []
        over = 0  # lines past ``room`` commands
        i = at + 1
        while i < len(lines) and not (len(lines[i]) <= MAX_LINE and reader.end.match(lines[i])):
            cmd = None if len(inner) >= room else self._line_command(lines[i])
            if cmd is not None:
                inner.append(cmd)
            elif len(inner) >= room:
                over += 1
            else:
                unread.append(lines[i])
            i += 1
        if over:
            unread.append(f"(the {over:,} lines after the first {room} commands: not read)")
        if i == len(lines):
            unread.append(f"(no end line after {line!r})")
        cmd = reader.build(inner, _quoted_back(unread))
        cmd.line = line
        return cmd, i + 1, len(inner)

    def _prefixed(self, line: str) -> Cmd | None:
        """A line wrapping the rest of itself ("Repeat 3 times: LINE"); that rest is read as one plain
        command line (a prefix inside a prefix is no command)."""
        if len(line) > MAX_LINE:
            return None
        for reader in self.prefixes:
            m = reader.pattern.match(line)
            if m:
                cmd = reader.build(m, self._line_command(m[m.lastindex or 0].strip()))
                cmd.line = line
                return cmd
        return None


def _leading_words(pattern: re.Pattern[str]) -> list[str]:
    """The literal words a line pattern starts with ("^(accept|reject|ignore)..." -> three)."""
    found = re.match(r"\^\(?([a-z|]+)", pattern.pattern)
    if found is None:
        raise ValueError(f"a command's line pattern must start with a literal word: {pattern.pattern!r}")
    return found[1].split("|")


def _repeats(subject: str, body: str) -> bool:
    """Whether a body line says the subject's command again ("Subscribe" in both): it is read once."""
    said = " ".join(subject.split()).lower()
    return any(" ".join(line.split()).lower() == said for line in _lines(body))


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
