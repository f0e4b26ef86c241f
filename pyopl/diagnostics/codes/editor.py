"""12xx (1220-1229): the language server's project setting (which data files go with a model)."""
from ..registry import register as R

R("OPL1220", "project-file-invalid", "error", "`pyopl.toml` cannot be read",
  """`pyopl lsp` reads `pyopl.toml` at the root of a workspace folder to pair models with their data
files. The file is not valid TOML (the diagnostic points at the place the TOML reader stopped) or
not UTF-8 text. Until it is fixed, models pair with the `.dat` of the same name beside them.
The file looks like this:

    [[run]]
    model = "models/plan.mod"
    data = ["data/common.dat", "data/week1.dat"]""")
R("OPL1221", "project-setting-invalid", "error", "Project setting has the wrong shape",
  """A pairing of the project setting (a `[[run]]` table of `pyopl.toml`, or the `data` setting the
editor sends in its initialization options) needs `model`, a path or glob relative to the workspace
folder, and `data`, a path or a list of paths. The options take the form
`{"data": {"models/*.mod": ["data/common.dat"]}}`. A pairing of the wrong shape is ignored.""")
R("OPL1222", "project-data-missing", "error", "Data file of the project setting does not exist",
  """A data file listed in the project setting does not exist (paths are relative to the workspace
folder). The model is checked with the other data files of its pairing; the diagnostic is shown on
the setting and on the model.""")
R("OPL1223", "project-path-outside", "error", "Project setting names a file outside the workspace",
  """The language server reads only files inside the workspace folder: a path of the project setting
that leads outside it (an absolute path elsewhere, `..`, or a symbolic link out of the folder,
followed to where it points) is refused and never read. Move the file into the workspace folder
(a symbolic link inside the folder must point inside it too).""")
R("OPL1224", "project-model-missing", "warning", "Model of the project setting does not exist",
  """The `model` of a pairing in `pyopl.toml` is a plain path (no `*`, `?` or `[`) and no such file
exists in the workspace folder, so the pairing applies to nothing. Check the path (it is relative to
the folder that holds `pyopl.toml`) or use a glob such as `models/*.mod`.""")
