#!/usr/bin/env python3
"""Rewrites citations of the design notes that live outside the project (SEMANTICS.md, ARCHITECTURE.md,
SCENE-FORMAT.md, STYLE.md, ANIMATION.md, DISPLAY.md, LAYERS.md) into citations of the project's own pages under
docs/, each with a heading that exists there, and checks that every citation of a docs/ page names a real page and
heading.

    tools/fix-design-refs.py            # rewrite in place; prints each file it changed
    tools/fix-design-refs.py --check    # change nothing; list every citation that is not resolved; exit 1 if any
    tools/fix-design-refs.py --dry-run  # print the rewrites it would make

The tables below are the source of truth: a citation the script cannot resolve (an unknown heading, a possessive
"SEMANTICS.md's ..." no phrase rule covers, a page with no counterpart such as STYLE.md) is left as it is and
reported by --check; resolve it by adding a row (and, if the project has no such section yet, by writing it in
docs/). Running the script twice changes nothing the second time.

The form written in code is `docs/PAGE.md, "Heading"` (the heading's text exactly as in the page, without its
#s); in docs/*.md and README.md it is a Markdown link to the heading's anchor. DocumentationLinkTests (in
Tests/LaminaCoreTests) checks the same form, so keep the grammar here and there alike.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What is scanned: the project's code, tests, tools and documentation (never .build/ or .git/).
SCAN = ["Sources", "Tests", "tools", "Fuzz", "docs", "Shaders", ".ci", "README.md", "Package.swift"]
TEXT_SUFFIXES = (".swift", ".py", ".sh", ".md", ".json", ".c", ".h", ".txt", ".supp", ".yml", ".yaml", ".plist",
                 ".frag", ".vert", ".modulemap", "")
# Files that name the outside pages on purpose: this script's tables and the test's own examples.
EXCLUDE = {"tools/fix-design-refs.py", "Tests/LaminaCoreTests/DocumentationLinkTests.swift"}
# A rewritten comment line longer than this pushes its last words down into its paragraph.
WIDTH = 120

# The outside pages, and the project page each one's content lives in (None: the project has no such page yet).
PAGES = {
    "SEMANTICS.md": "docs/semantics.md",
    "ARCHITECTURE.md": "docs/architecture.md",
    "SCENE-FORMAT.md": "docs/scene-format.md",
    "STYLE.md": None,       # house style for contributors; the project keeps no copy
    "ANIMATION.md": None,   # animation is not built yet: its sections come with it
    "DISPLAY.md": "docs/kiosk.md",
    "LAYERS.md": None,      # specialised layers: not built yet
}

# (outside page, heading cited) -> (project page, heading). A cited heading is matched exactly, or as the first
# part of the outside heading (before ":" or " ("), which is how the code cites them.
HEADINGS = {
    ("SEMANTICS.md", "Spaces"): ("docs/semantics.md", "Spaces"),
    ("SEMANTICS.md", "Geometry of a layer"): ("docs/semantics.md", "Geometry"),
    ("SEMANTICS.md", "What one layer paints"): ("docs/semantics.md", "What a layer paints"),
    ("SEMANTICS.md", "What one layer paints, bottom to top"): ("docs/semantics.md", "What a layer paints"),
    ("SEMANTICS.md", "Contents"): ("docs/semantics.md", "Contents"),
    ("SEMANTICS.md", "Contents (the backing image)"): ("docs/semantics.md", "Contents"),
    ("SEMANTICS.md", "Custom drawing"): ("docs/semantics.md", "Custom drawing"),
    ("SEMANTICS.md", "Colour and blending"): ("docs/semantics.md", "Pixels"),
    # Pixel-centre coverage and the top-left rule are under "Pixels"; analytic coverage is "Edges" (CONTEXT).
    ("SEMANTICS.md", "Coverage and edges"): ("docs/semantics.md", "Pixels"),
    ("SEMANTICS.md", "Parity"): ("docs/semantics.md", "Parity"),
    ("SEMANTICS.md", "Group opacity"): ("docs/semantics.md", "Opacity"),
    ("ARCHITECTURE.md", "Data flows one way"): ("docs/architecture.md", "Plan first, render second"),
    ("ARCHITECTURE.md", "Data flows one way: plan first, render second"):
        ("docs/architecture.md", "Plan first, render second"),
    ("ARCHITECTURE.md", "Targets"): ("docs/architecture.md", "Targets"),
    ("ARCHITECTURE.md", 'Targets (Package.swift); an arrow is "may import"'): ("docs/architecture.md", "Targets"),
    ("ARCHITECTURE.md", "Shaders"): ("docs/architecture.md", "GPU side"),
    ("ARCHITECTURE.md", "Pixels"): ("docs/architecture.md", "Pixels"),
    ("ARCHITECTURE.md", "GPU side"): ("docs/architecture.md", "GPU side"),
    ("ARCHITECTURE.md", "CPU side"): ("docs/architecture.md", "CPU side"),
    ("ARCHITECTURE.md", "Mip chains"): ("docs/architecture.md", "Mip chains"),
    ("ARCHITECTURE.md", "Tests"): ("docs/architecture.md", "Tests"),
    ("SCENE-FORMAT.md", "Top level"): ("docs/scene-format.md", "Top level"),
    ("SCENE-FORMAT.md", "A layer"): ("docs/scene-format.md", "A layer"),
    ("SCENE-FORMAT.md", "Drawing steps"): ("docs/scene-format.md", "Drawing steps"),
    ("SCENE-FORMAT.md", "Drawing steps (`draw`)"): ("docs/scene-format.md", "Drawing steps"),
    ("SCENE-FORMAT.md", "Errors"): ("docs/scene-format.md", "Errors"),
}

# Citations whose project heading depends on what the sentence is about, tried before HEADINGS: (outside page,
# heading cited or None for a citation of the page alone, a regular expression searched in the citation's line and
# the next, project page, heading or None for the page as a whole). The first row that matches wins.
CONTEXT = [
    ("SEMANTICS.md", "Coverage and edges", r"analytic|antialias", "docs/semantics.md", "Edges"),
    ("SEMANTICS.md", None, r"[Gg]roup opacity|allowsGroupOpacity", "docs/semantics.md", "Opacity"),
    ("SEMANTICS.md", None, r"paint nothing|paints nothing", "docs/semantics.md", "What a layer paints"),
    ("SEMANTICS.md", None, r"[Cc]ustom drawing|setNeedsDisplay", "docs/semantics.md", "Custom drawing"),
    ("SEMANTICS.md", None, r"no-bleed|sampled per", "docs/semantics.md", "Contents"),
    ("SEMANTICS.md", None, r"pixel-centre|top-left rule", "docs/semantics.md", "Pixels"),
    ("SEMANTICS.md", None, r"[Pp]arity", "docs/semantics.md", "Parity"),
    ("SEMANTICS.md", None, r"derived from", "docs/semantics.md", None),
    ("ARCHITECTURE.md", None, r"never sees a layer|rasterises a plan", "docs/architecture.md",
     "Plan first, render second"),
    ("SCENE-FORMAT.md", None, r"value types|layer key", "docs/scene-format.md", "A layer"),
]

# Phrases rewritten whole, before anything else, where a citation is part of the grammar of its sentence (a
# possessive, "the design notes"). `~` in a pattern stands for a comment line break (a newline, indentation and
# the comment marker), kept as it was.
PHRASES = [
    (r"ARCHITECTURE\.md's order:", 'the order of docs/gpu-and-kiosk.md, "Which display":'),
    (r"ARCHITECTURE\.md's target table", 'the table of docs/architecture.md, "Targets",'),
    (r"SEMANTICS\.md's no-bleed clamp", 'the no-bleed clamp of docs/semantics.md, "Contents"'),
    (r"SCENE-FORMAT\.md's order", 'the order of docs/scene-format.md, "Drawing steps"'),
    (r"SEMANTICS\.md's parity~bound", 'the parity~bound of docs/semantics.md, "Parity"'),
    (r"SEMANTICS\.md's parity bound", 'the parity bound of docs/semantics.md, "Parity"'),
    (r"SCENE-FORMAT\.md in the design notes", "docs/scene-format.md"),
    (r"SCENE-FORMAT\.md \(the design notes\)", "docs/scene-format.md"),
    (r"(?<![\w/.-])SEMANTICS\.md says\b", 'docs/semantics.md says'),
]

PAGE_NAMES = "|".join(re.escape(p[:-3]) for p in PAGES)
# An outside page, optionally followed by a quoted heading (`, "H"`, ` "H"`, `, section "H"`, JSON's `\"H\"`).
OUTSIDE = re.compile(
    r"(?<![\w/.-])(?P<page>(?:" + PAGE_NAMES + r")\.md)(?!['\u2019]s\b)"
    r"(?:(?P<sep>,?[ \t]*(?:section[ \t]+)?)(?P<q>\\?\")(?P<heading>[^\"\\\n]{1,100})(?P=q))?")
# Any mention at all, for --check.
ANY_OUTSIDE = re.compile(r"(?<![\w/.-])(?:" + PAGE_NAMES + r")\.md")
# A citation of a project page: `docs/PAGE.md`, optionally with `, "H"`, ` "H"` or `'s "H"`; after a comma the
# heading may start on the next comment line.
PROJECT = re.compile(
    r"(?<![\w./-])docs/(?P<page>[\w-]+\.md)"
    r"(?:(?:,[ \t]*(?:\n[ \t]*(?:///?|#|\*)?[ \t]*)?|'s[ \t]+|[ \t]+)(?P<q>\\?\")(?P<heading>[^\"\\\n]{1,100})(?P=q))?")
COMMENT = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>///|//|#)(?P<space> ?)(?P<text>.*)$")


def headings(page):
    """The headings of a project page, as written (without the #s), or None when the page does not exist."""
    path = os.path.join(ROOT, page)
    if not os.path.isfile(path):
        return None
    found, fenced = [], False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
            match = None if fenced else re.match(r"^#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$", line)
            if match:
                found.append(match.group(1))
    return found


def slug(heading):
    """GitHub's anchor for a heading (without the -1, -2 of repeated headings)."""
    text = re.sub(r"[^\w\- ]", "", heading.lower().replace("`", ""))
    return text.replace(" ", "-")


def files():
    for entry in SCAN:
        top = os.path.join(ROOT, entry)
        if os.path.isfile(top):
            yield entry
            continue
        for folder, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d not in (".build", ".git", "Corpus"))
            for name in sorted(names):
                path = os.path.relpath(os.path.join(folder, name), ROOT)
                if path not in EXCLUDE and os.path.splitext(name)[1] in TEXT_SUFFIXES:
                    yield path


def read(path):
    try:
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None


def resolve(page, heading, context):
    """(project page, heading or None), or None when the tables do not say."""
    # The citation's own line decides first; the next line only when the own line matches no row.
    for window in (context.split("\n")[0], context):
        for old_page, old_heading, pattern, new_page, new_heading in CONTEXT:
            if old_page == page and old_heading == heading and re.search(pattern, window):
                return new_page, new_heading
    if heading is None:
        return None
    for candidate in (heading, re.split(r":| \(", heading)[0]):
        if (page, candidate) in HEADINGS:
            return HEADINGS[(page, candidate)]
    return None


def citation(path, page, heading, json_quotes):
    """How `path` cites `page`, "`heading`"."""
    markdown = path.endswith(".md") and ".docc/" not in path
    if markdown:
        target = os.path.relpath(page, os.path.dirname(path) or ".")
        name = os.path.basename(page)
        if heading is None:
            return "[%s](%s)" % (name, target)
        return '[%s, "%s"](%s#%s)' % (name, heading, target, slug(heading))
    if heading is None:
        return page
    quote = '\\"' if json_quotes else '"'
    return "%s, %s%s%s" % (page, quote, heading, quote)


def phrase_pattern(pattern):
    return re.compile(pattern.replace("~", r"(?P<br>\n[ \t]*(?:///?|#)[ \t]*)"))


def rewrite(path, text):
    """The text with every resolvable citation rewritten, and the line numbers (0-based) it changed."""
    markdown = path.endswith(".md") and ".docc/" not in path
    for pattern, replacement in PHRASES:
        def phrase(match, replacement=replacement):
            out = replacement.replace("~", match.groupdict().get("br") or " ")
            if markdown:
                out = PROJECT.sub(lambda m: citation(path, "docs/" + m.group("page"), m.group("heading"), False), out)
            return out
        text = phrase_pattern(pattern).sub(phrase, text)

    def replace(match):
        page, heading = match.group("page"), match.group("heading")
        line_end = text.find("\n", text.find("\n", match.end()) + 1)
        context = text[text.rfind("\n", 0, match.start()) + 1:line_end if line_end >= 0 else len(text)]
        target = resolve(page, heading, context)
        if target is None and heading is not None:
            # The quoted text may not be a heading at all ("SEMANTICS.md, "x" ..."): try the page alone.
            bare = resolve(page, None, context)
            if bare is not None:
                return citation(path, bare[0], bare[1], path.endswith(".json")) + match.group(0)[len(page):]
        if target is None:
            return match.group(0)
        return citation(path, target[0], target[1], path.endswith(".json"))

    return OUTSIDE.sub(replace, text)


def reflow(original, rewritten, path):
    """Comment lines the rewrite made longer than WIDTH push their last words into the next line of their comment
    paragraph (a new line at its end), so the comments keep their width."""
    if not path.endswith((".swift", ".py", ".sh", ".c", ".h")):
        return rewritten
    old_lines = set(original.split("\n"))
    lines = rewritten.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        match = COMMENT.match(line)
        if len(line) <= WIDTH or line in old_lines or not match:
            i += 1
            continue
        head = match.group("indent") + match.group("marker") + (match.group("space") or " ")
        # A citation's quoted heading is one word: the checks read it on one line.
        protected = re.sub(r'docs/[\w-]+\.md, \\?"[^"\\]*\\?"', lambda m: m.group(0).replace(" ", "\0"),
                           match.group("text"))
        words = [word.replace("\0", " ") for word in protected.split(" ")]
        kept = []
        for word in words:
            if kept and len(head + " ".join(kept + [word])) > WIDTH:
                break
            kept.append(word)
        carry = " ".join(words[len(kept):])
        lines[i] = head + " ".join(kept)
        following = COMMENT.match(lines[i + 1]) if i + 1 < len(lines) else None
        continues = (following and following.group("indent") == match.group("indent")
                     and following.group("marker") == match.group("marker") and following.group("text").strip()
                     and not re.match(r"[-*|`]|\d+\.|[A-Z]\w*:$|MARK:", following.group("text").lstrip()))
        if continues:
            lines[i + 1] = head + carry + " " + following.group("text").lstrip()
            old_lines.discard(lines[i + 1])
        else:
            lines.insert(i + 1, head + carry)
        i += 1
    return "\n".join(lines)


def problems(path, text):
    """Citations in `text` that do not resolve to a project page and heading: (line, message)."""
    found = []
    for match in ANY_OUTSIDE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        found.append((line, "cites %s, outside the project: add a row to the tables of tools/fix-design-refs.py "
                            "(and the section to docs/ if it is missing)" % match.group(0)))
    for match in PROJECT.finditer(text):
        page, heading = "docs/" + match.group("page"), match.group("heading")
        line = text.count("\n", 0, match.start()) + 1
        known = headings(page)
        if known is None:
            found.append((line, "cites %s, which does not exist" % page))
        elif heading is not None and heading not in known:
            found.append((line, 'cites %s, "%s": no such heading (it has: %s)' % (page, heading, "; ".join(known))))
    return found


def check_tables():
    """Every row of the tables must point at a heading that exists, or the script would write broken citations."""
    rows = list(HEADINGS.values()) + [(r[3], r[4]) for r in CONTEXT]
    rows += [(m.group(1), m.group(2)) for _, r in PHRASES for m in re.finditer(r'(docs/[\w-]+\.md), "([^"]+)"', r)]
    bad = []
    for page, heading in rows:
        known = headings(page)
        if known is None or (heading is not None and heading not in known):
            bad.append('table row points at %s, "%s", which does not exist' % (page, heading))
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; report unresolved citations")
    parser.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    args = parser.parse_args()

    bad_rows = check_tables()
    for message in bad_rows:
        print("tools/fix-design-refs.py: " + message, file=sys.stderr)
    if bad_rows:
        return 2

    failures = 0
    for path in files():
        text = read(path)
        if text is None:
            continue
        if args.check:
            for line, message in problems(path, text):
                print("%s:%d: %s" % (path, line, message))
                failures += 1
            continue
        new = reflow(text, rewrite(path, text), path)
        if new == text:
            continue
        if args.dry_run:
            old_lines, new_lines = text.split("\n"), new.split("\n")
            print("== " + path)
            for line in new_lines:
                if line not in old_lines:
                    print("+ " + line.strip())
            continue
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            f.write(new)
        print(path)
    if args.check:
        print("%d unresolved citation%s" % (failures, "" if failures == 1 else "s"), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
