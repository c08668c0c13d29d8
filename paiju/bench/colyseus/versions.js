// The versions `paiju bench peers` prints: Node's and those of the installed packages.
//   node versions.js  -> one JSON object

"use strict";

const fs = require("fs");
const path = require("path");

const PACKAGES = ["@colyseus/core", "@colyseus/schema", "@colyseus/ws-transport", "colyseus.js", "@msgpack/msgpack"];

function versions() {
  const out = { node: process.version };
  for (const name of PACKAGES) {
    const file = path.join(__dirname, "node_modules", name, "package.json");
    out[name] = JSON.parse(fs.readFileSync(file, "utf8")).version;
  }
  return out;
}

module.exports = { versions };

if (require.main === module) console.log(JSON.stringify(versions()));
