"""A game's renderer (``rendering.Renderer``) renders as a plain Jinja environment renders: its
templates' globals are a dict of the environment's (``FixedGlobals``), with the same names and
values as Jinja's own view of them, and a template's own globals over them."""
from __future__ import annotations

from jinja2 import DictLoader, Environment

from rendering import FixedGlobals

SOURCE = "{% for i in range(3) %}{{ i }}{% endfor %} {{ dict(a=1)['a'] }} {{ name }} {% include 'line.txt' %}"
TEMPLATES = {"mail.txt": SOURCE, "line.txt": "{{ name }} {{ 'yes' if joiner else 'no' }}"}


def test_a_template_renders_as_in_a_plain_environment():
    plain, fixed = (kind(loader=DictLoader(TEMPLATES)) for kind in (Environment, FixedGlobals))
    made = [env.get_template("mail.txt").render(name="Bob") for env in (plain, fixed)]
    assert made[1] == made[0] == "012 1 Bob Bob yes"
    assert dict(fixed.get_template("mail.txt").globals) == dict(plain.get_template("mail.txt").globals)


def test_a_template_s_own_globals_come_first():
    env = FixedGlobals(loader=DictLoader(TEMPLATES))
    assert env.get_template("line.txt", globals={"joiner": ""}).render(name="Al") == "Al no"
    assert env.globals["joiner"]  # the environment's own are left as they were
