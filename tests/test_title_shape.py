"""The shape of the house: every title in its own folder, a shared layer that knows no title,
and rules engines that stay pure."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from companion import titles

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"
TITLES_DIR = PACKAGE / "titles"

# Standard-library modules a rules engine may not use: they reach the disk, the network, other
# processes or the clock, or draw hidden randomness.
IMPURE = {
    "os", "sys", "io", "time", "datetime", "pathlib", "sqlite3", "socket", "subprocess",
    "shutil", "tempfile", "threading", "multiprocessing", "asyncio", "logging", "glob",
    "signal", "select", "urllib", "http", "secrets", "uuid", "importlib", "pickle", "shelve",
}
IMPURE_CALLS = {"open", "print", "input", "exec", "eval", "__import__", "breakpoint"}
SHARED_PURE = {"companion.titles.api", "companion.i18n"}


def shared_files() -> list[Path]:
    """Every module of the shared layer: all of companion/ but the titles' own folders."""
    out = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "titles" and len(rel.parts) > 2:
            continue  # a title's own folder
        out.append(path)
    return out


def test_each_registered_title_is_a_folder_of_its_own():
    for key, package in titles.REGISTRY.items():
        assert package == f"companion.titles.{key}"
        folder = TITLES_DIR / key
        for part in ("rules", "content", "table", "screens", "bots"):
            assert (folder / f"{part}.py").exists(), f"{key} has no {part}.py"
        assert (folder / "demo.toml").exists(), f"{key} has no demo pack"
        assert (ROOT / "docs" / "rules" / f"{key}.md").exists(), f"{key} has no rules notes"
        assert (ROOT / "docs" / "titles" / f"{key}.md").exists(), f"{key} has no title page"


def test_the_shared_layer_names_no_title():
    words = set()
    for key in titles.keys():
        words.add(key)
        words.update(w for w in re.findall(r"[A-Za-z_]+", titles.get(key).facts.name)
                     if len(w) > 4 and w.lower() not in {"future", "game", "cards", "board"})
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, words))) + r")\b", re.I)
    registry = TITLES_DIR / "__init__.py"
    leaks = []
    for path in shared_files():
        if path == registry:
            continue  # the one place that lists the titles
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            found = pattern.search(line)
            if found:
                leaks.append(f"{path.relative_to(ROOT)}:{number}: {found.group(0)}")
    assert not leaks, "the shared layer names a title:\n" + "\n".join(leaks)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import; ``from m import x`` gives ``m.x`` when that is a
    module of the same folder, else ``m``; relative imports start with ".")."""
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = ("." * node.level + (node.module or "")) if node.level else node.module or ""
            folder = path.parent
            for alias in node.names:
                if (folder / f"{alias.name}.py").exists() and (node.level or module.endswith(
                        "." + folder.name)):
                    out.append((node.lineno, f"{module}.{alias.name}".replace("..", ".")))
                else:
                    out.append((node.lineno, module))
    return out


def _pure_problems(path: Path, key: str, seen: set[Path]) -> list[str]:
    """Why the module at ``path`` (or a module of its title it imports) is not pure."""
    if path in seen:
        return []
    seen.add(path)
    problems = []
    where = path.relative_to(ROOT)
    own = f"companion.titles.{key}."
    for line, name in _imports(path):
        top = name.split(".")[0]
        if name.startswith(own) or name.startswith("."):
            module = name[len(own):] if name.startswith(own) else name.lstrip(".")
            if not module:
                continue  # the title's package itself
            target = TITLES_DIR / key / (module.replace(".", "/") + ".py")
            if target.exists():
                problems += _pure_problems(target, key, seen)
            else:
                problems.append(f"{where}:{line}: imports {name}, not a module of {key}")
        elif name.startswith("companion"):
            if name not in SHARED_PURE:
                problems.append(f"{where}:{line}: imports {name} (only {SHARED_PURE} may be)")
        elif top in IMPURE:
            problems.append(f"{where}:{line}: imports {name} (I/O, the clock or chance)")
        elif top not in sys.stdlib_module_names and top != "__future__":
            problems.append(f"{where}:{line}: imports {name} (not the standard library)")
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in IMPURE_CALLS:
                problems.append(f"{where}:{node.lineno}: calls {node.func.id}()")
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "random" and node.attr != "Random"):
            problems.append(f"{where}:{node.lineno}: random.{node.attr} (chance comes as actions"
                            " or through the rng given to sample_chance)")
    return problems


@pytest.mark.parametrize("key", titles.keys())
def test_rules_stay_pure(key):
    problems = _pure_problems(TITLES_DIR / key / "rules.py", key, set())
    assert not problems, "\n".join(problems)


def test_the_purity_check_catches_what_it_should(tmp_path, monkeypatch):
    folder = tmp_path / "companion" / "titles" / "fake"
    folder.mkdir(parents=True)
    (folder / "rules.py").write_text(
        "import random\nimport time\nimport numpy\nfrom companion.journal import Journal\n"
        "from companion.titles.fake import helpers\n"
        "def roll():\n    print(time.time())\n    return random.randint(1, 6)\n")
    (folder / "helpers.py").write_text("import sqlite3\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "TITLES_DIR", tmp_path / "companion" / "titles")
    text = "\n".join(_pure_problems(folder / "rules.py", "fake", set()))
    for word in ("time", "numpy", "companion.journal", "sqlite3", "print()", "random.randint"):
        assert word in text, word


def test_one_copy_of_the_light_protocol():
    firmware = ROOT / "firmware" / "lightproto.py"
    assert not firmware.exists() or firmware.is_symlink(), (
        "firmware/lightproto.py is a second copy; the deploy step copies "
        "companion/link/lightproto.py")


def _module_graph() -> dict[str, set[str]]:
    """companion module -> the companion modules it imports anywhere in its text."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(max(0, node.level - 1)):
                    base = base.rsplit(".", 1)[0]
                module = (f"{base}.{node.module}" if node.module else base) if node.level \
                    else node.module or ""
                targets = [module] + [f"{module}.{a.name}" for a in node.names]
            for target in targets:
                while target and target not in names:
                    target = target.rsplit(".", 1)[0] if "." in target else ""
                if target and target != name and not name.startswith(target + "."):
                    edges.add(target)
        graph[name] = edges
    return graph


def test_no_import_circles():
    graph = _module_graph()
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import circles:\n" + "\n".join(" -> ".join(c) for c in cycles)
