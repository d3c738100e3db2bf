// The aepflow extension starts `aepflow lsp` for the YAML and JSON files of
// an AEP document tree (the files under workflows/, drivers/, profiles/,
// principles/, protocols/ and artifacts/lifecycles/) and leaves every
// other file alone. Everything else is the server's: diagnostics exactly as
// `aepflow validate` reports them, hover, definition, completion, symbols
// and quick fixes.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

// The rows of a tree (documents.md §2.1): a document below one of them, at
// any depth, belongs to the server.
const rows = ['workflows', 'drivers', 'profiles', 'principles', 'protocols', 'artifacts/lifecycles'];

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('aepflow').get('path') || 'aepflow';
  const documentSelector = [];
  for (const language of ['yaml', 'json']) {
    for (const row of rows) {
      documentSelector.push({ scheme: 'file', language, pattern: `**/${row}/**/*.{yaml,yml,json}` });
    }
  }
  client = new LanguageClient(
    'aepflow',
    'aepflow',
    { command, args: ['lsp'], transport: TransportKind.stdio },
    {
      documentSelector,
      // The server also asks for watchers itself; this covers clients that
      // do not register them on request.
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml,json}') },
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
