"""Where a script may write: the output folder, and the checks every output file passes.

``new IloOplOutputFile(name)`` (and every other file a script writes) names a file inside the
run's **output folder**: ``output_dir`` (``pyopl solve --output-dir DIR``, ``output_dir=`` in
the Python API), or by default ``<model stem>.out`` beside the model file (``plan.mod`` ->
``plan.out/``), made on the first file.  A model given as text has no default folder: its
scripts write only when ``output_dir`` is given.  The file is refused (a diagnostic at the
script's own span) when:

- its name is empty, holds a NUL, or a ``..`` leads out of the folder (OPL1056,
  ``script-output-outside``); an absolute name (``c:\\temp\\res.txt``, ``/tmp/res.txt``: IBM's
  examples write so) goes into the folder under its last part (``res.txt``), with a warning that
  says where (OPL1080, ``script-output-redirected``): the model runs, nothing leaves the folder;
- a part of its name starts with ``.`` (``.git/config``, ``.bashrc``, ``.vscode/x``): dot-files
  and dot-folders hold the configuration of other programs (OPL1065, ``script-output-unsafe``);
- it exists and is not a regular file (a device, a FIFO, a socket, a folder), has other hard
  links, or a symbolic link on the way leads out of the folder (OPL1065 / OPL1056);
- it is a file the run read: the model, a data file, an included file, a sub-model or data file
  ``main`` loaded (OPL1066, ``script-output-input``; :mod:`pyopl.files.reads`).

In an analysis (``check``, the language server, the MCP ``check`` tool; ``ScriptOptions.analysis``)
the same checks run on the name, but nothing is made or written: the text goes to a sink.
The checks run again just before the bytes are written, and the bytes go to a temporary file
renamed over the target (never written through a link).
"""
from __future__ import annotations

import os
import stat
from typing import Any

from ..opl.host_errors import host_error
from ..opl.options import OUTPUT_SUFFIX

_HELP_FOLDER = ("scripts write only into the output folder %s, by a plain name (or a name under a subfolder "
                "of it); `pyopl solve --output-dir DIR` (Python: `output_dir=`) chooses another folder")


def output_root(ctx: Any) -> str | None:
    """The output folder of ``ctx`` as a real path (it may not exist yet); None for a model given
    as text without ``output_dir``."""
    if ctx.options.output_dir:
        return os.path.realpath(ctx.options.output_dir)
    if ctx.model_file.startswith("<"):
        return None
    folder = os.path.realpath(os.path.dirname(os.path.abspath(ctx.model_file)))
    stem = os.path.splitext(os.path.basename(ctx.model_file))[0] or "model"
    return os.path.join(folder, stem + OUTPUT_SUFFIX)


def _name_problem(name: str) -> tuple[str, str] | None:
    """(slug, what is wrong) with the name itself, whatever the folder; None when it may be used."""
    if not name or "\x00" in name:
        return "script-output-outside", "is not a file name"
    if os.path.isabs(name) or (len(name) > 1 and name[1] == ":") or name.startswith(("\\", "~")):
        return "script-output-outside", "is an absolute path"
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts:
        return "script-output-outside", "is not a file name"
    if ".." in parts:
        return "script-output-outside", "leads out of the output folder (`..`)"
    dotted = next((p for p in parts if p.startswith(".")), None)
    if dotted is not None:
        return "script-output-unsafe", ("is a dot-file" if dotted == parts[-1] else "is in the dot-folder `%s`" % dotted) + \
            " (dot-files and dot-folders such as `.git` hold other programs' settings)"
    return None


def _file_problem(target: str) -> tuple[str, str] | None:
    """(slug, what is wrong) with the file ``target`` (a real path inside the folder) as it is now."""
    from ...files.reads import current

    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        return "script-output-unsafe", "cannot be examined (%s)" % (e.strerror or e)
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            return "script-output-unsafe", "is a folder"
        if stat.S_ISLNK(st.st_mode):
            return "script-output-unsafe", "is a symbolic link"
        if not stat.S_ISREG(st.st_mode):
            return "script-output-unsafe", "is not a regular file (a device, a FIFO or a socket)"
        if st.st_nlink > 1:
            return "script-output-unsafe", "has other hard links (writing it would change the file under its other names)"
    rec = current()
    if rec is not None and rec.holds(target):
        return "script-output-input", "is a file this run reads (the model, a data file, an included file or a " \
                                      "model or data file loaded by `main`)"
    return None


def _refuse(slug: str, name: str, what: str, span: Any, root: str | None) -> Any:
    where = root if root is not None else "(none: the model was given as text)"
    help_text = _HELP_FOLDER % where
    if slug == "script-output-input":
        help_text = "write the results under another name; " + help_text
    return host_error(slug, "the output file `%s` %s" % (name, what), span, help=help_text)


def _ensure_root(ctx: Any, root: str, span: Any, name: str) -> None:
    """Make the default output folder when it is missing; refuse one that is a link or not a folder."""
    given = bool(ctx.options.output_dir) and not getattr(ctx.options, "default_output", False)
    if os.path.lexists(root) and (os.path.islink(root) or not os.path.isdir(root)):
        raise _refuse("script-output-unsafe", name, "cannot be written: the output folder `%s` is %s" % (
            root, "a symbolic link" if os.path.islink(root) else "not a folder"), span, root)
    if not os.path.isdir(root):
        if given:
            raise _refuse("script-output-outside", name, "cannot be written: the output folder `%s` does not exist"
                          % root, span, root)
        try:
            os.mkdir(root)
        except FileExistsError:
            pass
        except OSError as e:
            raise host_error("script-output-failed", "the output folder `%s` could not be made: %s" % (
                root, e.strerror or e), span, help="check the permissions of the model's folder, or give `--output-dir DIR`")


def _is_absolute(name: str) -> bool:
    """``/x``, ``C:x``, ``C:\\x``, ``\\x`` (not ``~/x``: a shell's word, refused as it is)."""
    return os.path.isabs(name) or (len(name) > 1 and name[1] == ":") or name.startswith("\\")


def _redirected(ctx: Any, name: str, span: Any, root: str | None) -> str:
    """An absolute ``name``: its last part, to be written in the output folder (warned once per name);
    any other name as it is."""
    if root is None or not name or "\x00" in name or not _is_absolute(name):
        return name
    base = name.replace("\\", "/").rstrip("/").split("/")[-1]
    if base.startswith("~") or base in ("", ".", "..") or (len(base) > 1 and base[1] == ":"):
        return name
    seen = ctx.__dict__.setdefault("_redirected_outputs", set())
    if name not in seen:
        seen.add(name)
        ctx.reporter.emit("script-output-redirected", span, "the output file `%s` is an absolute path: pyopl writes it "
                          "into the output folder instead, as `%s`" % (name, os.path.join(root, base)),
                          help="write a plain file name (`\"%s\"`); `pyopl solve --output-dir DIR` (Python: "
                               "`output_dir=`) chooses the folder" % base)
    return base


def written_name(ctx: Any, name: str) -> str:
    """The name under which output file ``name`` went into the output folder: the last part of an
    absolute name a script of this run wrote (OPL1080), else ``name`` (so that reading it back with
    ``IloOplInputFile`` finds the file the write made)."""
    if name in ctx.__dict__.get("_redirected_outputs", ()):
        return _redirected(ctx, name, None, "")
    return name


def confined_path(ctx: Any, name: str, span: Any) -> str | None:
    """The path output file ``name`` of ``ctx`` goes to, after every check of the module docstring;
    None in an analysis when the output folder does not exist yet (the text goes to the sink). Raises a host error
    (OPL1056, OPL1065, OPL1066 or OPL1064) for a refused name; an absolute name goes into the folder (OPL1080)."""
    root = output_root(ctx)
    name = _redirected(ctx, name, span, root)
    problem = _name_problem(name)
    if problem is not None:
        raise _refuse(problem[0], name, problem[1], span, root)
    analysis = getattr(ctx.options, "analysis", False)
    if root is None:  # as in a solve, so that check and solve report the same
        raise host_error("script-output-outside", "the output file `%s` has no folder to go to: the model was given as "
                         "text" % name, span, help="compile the model from its file, or give `output_dir=` "
                                                   "(`--output-dir DIR`) for the files scripts write")
    if not analysis:
        _ensure_root(ctx, root, span, name)
    elif not os.path.isdir(root):  # a solve would make it, empty: only a plain name could go there
        if len([p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]) > 1:
            raise _refuse("script-output-outside", name, "is in a folder that does not exist", span, root)
        return None
    joined = os.path.join(root, name)
    if os.path.islink(joined):  # the file itself is a link: never written through, wherever it points
        raise _refuse("script-output-unsafe", name, "is a symbolic link", span, root)
    target = os.path.realpath(joined)
    if os.path.commonpath([root, target]) != root or target == root:
        raise _refuse("script-output-outside", name, "leads out of the output folder (through a symbolic link)",
                      span, root)
    if not os.path.isdir(os.path.dirname(target)):
        raise _refuse("script-output-outside", name, "is in a folder that does not exist", span, root)
    problem = _file_problem(target)
    if problem is not None:
        raise _refuse(problem[0], name, problem[1], span, root)
    return target


def count_written(ctx: Any, nbytes: int, name: str, span: Any) -> None:
    """Add ``nbytes`` to what the run's scripts wrote into files (an analysis counts what it would
    write); past ``ScriptOptions.max_written`` the write is refused (OPL1064) before it happens."""
    meter = getattr(ctx, "meter", None)
    if meter is None:
        return
    meter.written += nbytes
    limit = getattr(ctx.options, "max_written", None)
    if limit and meter.written > limit:
        raise host_error("script-output-failed", "the output file `%s` could not be written: the run's scripts would "
                         "write more than %d MB into files (%d MB with this one)" % (
                             name, limit // 1_000_000, meter.written // 1_000_000), span,
                         help="write fewer or smaller files (each write of a file, appends included, counts "
                              "the whole file); `ScriptOptions(max_written=N)` raises the budget")


def write_confined(ctx: Any, path: str | None, name: str, text: str, append: bool, span: Any = None) -> None:
    """Write ``text`` (after the file's bytes when ``append``) to ``path`` from :func:`confined_path`,
    checking the file again first; nothing in an analysis (``path`` None or ``ctx.options.analysis``).
    A failure (full disk, no permission) is OPL1064 at ``span``; a file that became unsafe meanwhile
    OPL1065/OPL1066."""
    from ...files.safe_write import WriteError, write_bytes_safely
    from ..opl.host import well_formed

    if path is None or getattr(ctx.options, "analysis", False):
        return
    problem = _file_problem(path)
    if problem is not None:
        raise _refuse(problem[0], name, problem[1], span, output_root(ctx))
    data = well_formed(text).encode("utf-8")
    try:
        if append and os.path.isfile(path):
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "rb") as f:
                data = f.read() + data  # bytes as they are: nothing re-decoded or replaced
        count_written(ctx, len(data), name, span)
        write_bytes_safely(path, data)
    except (WriteError, OSError) as e:
        raise host_error("script-output-failed", "the output file `%s` could not be written: %s"
                         % (name, getattr(e, "message", None) or e.strerror or e), span,
                         help="check the folder's permissions and free space, or choose another with --output-dir")
