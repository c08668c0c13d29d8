// The Colyseus server of `paiju bench peers`: the tricks room (room.js) in one mode.
//
//   node server.js [--port 0] [--host 127.0.0.1] [--mode per-move|default]
//
// prints one line, "colyseus serving on ws://HOST:PORT/ (mode M, colyseus V, node V)", then
// nothing more; it stops on SIGTERM or SIGINT (Colyseus's own graceful shutdown).

"use strict";

const { Server } = require("@colyseus/core");
const { WebSocketTransport } = require("@colyseus/ws-transport");
const { TricksRoom } = require("./room");
const { versions } = require("./versions");

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

async function main() {
  const host = option("host", "127.0.0.1");
  const port = Number(option("port", "0"));
  const mode = option("mode", "per-move");
  if (mode !== "per-move" && mode !== "default") {
    console.error(`server.js: --mode is per-move or default, not ${mode}`);
    process.exit(2);
  }
  const transport = new WebSocketTransport({ maxPayload: 128 * 1024 });
  const server = new Server({ transport, greet: false });
  server.define("tricks", TricksRoom, { perMove: mode === "per-move" });
  await server.listen(port, host);
  const address = transport.server.address();
  const version = versions()["@colyseus/core"];
  console.log(`colyseus serving on ws://${host}:${address.port}/ (mode ${mode}, colyseus ${version}, node ${process.version})`);
}

main().catch((e) => {
  console.error(`server.js: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
});
