// Starts `pyopl lsp` (or the command in the `pyopl.command` setting) for .mod and .dat files,
// passing the `pyopl.data` setting (model glob -> data files) as initialization options.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const cmd = vscode.workspace.getConfiguration("pyopl").get("command") || ["pyopl", "lsp"];
  const server = { command: cmd[0], args: cmd.slice(1), transport: TransportKind.stdio };
  client = new LanguageClient("pyopl", "OPL (pyopl)", server, {
    documentSelector: [{ scheme: "file", language: "opl" }, { scheme: "file", language: "opl-data" }],
    initializationOptions: { data: vscode.workspace.getConfiguration("pyopl").get("data") || {} },
    synchronize: { configurationSection: "pyopl" },  // a changed `pyopl.data` is sent to the server
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
