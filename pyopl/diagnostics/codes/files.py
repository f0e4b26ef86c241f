"""11xx (1120-1139): files: reading sources, writing results, `check --fix`, numbers out of range."""
from ..registry import register as R

R("OPL1120", "source-not-utf8", "error", "File is neither UTF-8 nor Windows-1252",
  """pyopl reads model and data files (and the files they `include`) as UTF-8 (a leading
byte-order mark is fine), and a file that is not UTF-8 as Windows-1252 with warning OPL1131. This
error is for a file that is neither (a byte Windows-1252 leaves undefined), and for `check --fix`,
which rewrites UTF-8 files only. It names the first byte that is not UTF-8, its offset in the file
and its line and column; pyopl never replaces the byte. Convert the file, for example
`iconv -f cp1252 -t utf-8 model.mod > model-utf8.mod`. A file that is not text at all, recognised by
its first bytes (an Excel workbook, a ZIP archive, a SQLite database, an old-format `.xls`), is named
for what it is, with the `.dat` statements that read it (`SheetConnection`/`SheetRead`,
`DBConnection`/`DBRead`: docs/data-sources.md).""")
R("OPL1129", "source-comment-not-utf8", "warning", "Comment is not UTF-8",
  """The file is not UTF-8, but every byte that is not lies inside a `//` or `/* */` comment (a
Latin-1 date or author name, say). pyopl reads those bytes as U+FFFD, one character per byte so
lines and columns stay exact, and compiles the file: a comment never reaches a value. A byte that
is not UTF-8 anywhere else (a string, a name) is error OPL1120. `pyopl check --fix` does not
rewrite such a file. Convert it, for example `iconv -f latin1 -t utf-8 model.mod > model-utf8.mod`.""")
R("OPL1131", "source-read-as-cp1252", "warning", "File is not UTF-8: read as Windows-1252",
  """OPL files written on Windows are often in the platform encoding, Windows-1252 (a superset of
Latin-1 for printable characters): accents in comments and strings. A file that is valid UTF-8 is
read as UTF-8; one that is not is read as Windows-1252, and this warning names the file and the first
byte that is not UTF-8 (offset, line, column) with the character it stands for there. A file with a
byte Windows-1252 leaves undefined (0x81, 0x8d, 0x8f, 0x90, 0x9d) stays error OPL1120, and
`pyopl check --fix` never rewrites a file that is not UTF-8.""")
R("OPL1132", "source-read-as-utf16", "warning", "File is UTF-16 or UTF-32: read as such",
  """The file starts with a UTF-16 (or UTF-32) byte-order mark: Windows Notepad's "Unicode" and
PowerShell 5's `>` write such files. pyopl reads it in that encoding (read as UTF-8, every other
byte would be a NUL) and says so; `pyopl check --fix` does not rewrite it (error OPL1120). Save the
file as UTF-8 (Notepad: Save as, Encoding UTF-8; PowerShell: `Out-File -Encoding utf8`; or
`iconv -f utf-16 -t utf-8 model.mod > model-utf8.mod`).""")
R("OPL1133", "write-same-output-twice", "error", "Two outputs name the same file",
  """Two outputs of one command (`solve -o`, `--csv`, `--log-file`, `--gantt`) name the same file (by name,
through a symbolic link, or as a hard link): the second written would replace the first, and one of
the results would be lost without a word. pyopl refuses before it compiles; give each output its own
file.""",
  bad="solve model.mod --csv out.txt -o out.txt", good="solve model.mod --csv out.csv -o out.json", via="cli",
  at=(1, 1))
R("OPL1121", "model-file-unreadable", "error", "Model file cannot be read",
  """The model file (or a file it includes) exists but cannot be read: its permissions forbid it,
or it is not a file the system can read. The message gives the system's reason.""")
R("OPL1122", "write-folder-missing", "error", "Output folder does not exist",
  """An output path (`export --lp/--mps`, `solve -o/--csv`) names a folder that does not exist.
pyopl does not create folders; create it first or give a path in an existing one.""",
  bad="export model.mod --lp missing/model.lp", good="export model.mod --lp model.lp", via="cli",
  at=(1, 1))
R("OPL1123", "write-disk-full", "error", "Disk full while writing",
  """The disk (or the user's quota) filled up while pyopl wrote an output file. The file is
written beside its target and renamed only when complete, so an older file of that name is left
as it was.""")
R("OPL1124", "write-target-refused", "error", "Output path cannot be written safely",
  """The output path is a folder, a socket, a symbolic link to nothing, or a FIFO that no process
reads. pyopl writes regular files (through a temporary file and a rename), and writes devices
such as `/dev/null` and FIFOs in place, never replacing them with a file.""",
  bad="export model.mod --lp .", good="export model.mod --lp model.lp", via="cli",
  at=(1, 1))
R("OPL1125", "write-read-only", "error", "File is read-only",
  """The file to write (or the model `check --fix` would repair) has no write permission, so pyopl
leaves it alone, even when run as root. Make it writable (`chmod u+w FILE`) or write elsewhere.""")
R("OPL1126", "fix-file-changed", "error", "File changed while fixes were computed",
  """`pyopl check --fix` reads the model, computes the fixes and writes them back only if the file
still holds exactly what was read (concurrent `--fix` runs wait for each other with a lock).
Another program changed the file in between, so nothing was written: run the command again.""")
R("OPL1127", "fix-backup-refused", "error", "No free name for the backup copy",
  """`pyopl check --fix` keeps the original as `FILE.bak`, or `FILE.bak.1`, `FILE.bak.2`... when
those exist (a backup is never overwritten, and never written through a symbolic link). All the
names up to `FILE.bak.99` are taken: remove old backups and run again.""")
R("OPL1128", "number-too-large", "error", "Number too large",
  """A number (a literal in the model or the data, or a value computed from data, such as
`10^400`) is beyond the largest floating-point number (about 1.8e308), so no solver can take it.""",
  bad="float big = %s;\ndvar float+ x;\nminimize x;" % ("1" + "0" * 400),
  good="float big = 1e30;\ndvar float+ x;\nminimize x;",
  at=(1, 13))
R("OPL1130", "write-failed", "error", "Output file cannot be written",
  """The system refused to write an output file (for example, no permission to write in the
folder). The message gives the system's reason; an older file of that name is left as it was.""")
R("OPL1250", "write-over-input", "error", "Output file is an input of the run",
  """An output path (`solve -o/--csv/--log-file`, `export --lp/--mps`) is a file the same command
reads: the model, a data file, or a file either of them `include`s (by name, through a symbolic
link, or as a hard link). Writing it would replace the input with results, and nothing would be
left to rerun. pyopl refuses before it writes anything (the model and data files before it
compiles, included files once compiling found them); choose another name for the output.""",
  bad="export model.mod --lp model.mod", good="export model.mod --lp model.lp", via="cli",
  at=(1, 1))
