// Starts `frontier lsp` for ruleset files (YAML), their scripts (Rhai) and traces, and
// hands it the documents the editor opens. Nothing is downloaded: the server is the
// frontier binary the setting `frontier.path` names (PATH by default).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("frontier").get("path") || "frontier";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "frontier",
    "Frontier",
    { run: server, debug: server },
    {
      documentSelector: [
        { scheme: "file", language: "yaml" },
        { scheme: "file", language: "frontier-trace" },
        { scheme: "file", pattern: "**/scripts/*.rhai" },
      ],
    }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
