// Copies the files of the pinned swagger-ui-dist that costdb serves, and its
// licences, from node_modules into dist/ (committed; embedded in the binary by
// adapters/httpapi/openapi). The files are copied byte for byte.
const fs = require("fs");
const path = require("path");

const from = path.join(__dirname, "node_modules", "swagger-ui-dist");
const to = path.join(__dirname, "dist");
const files = [
  "swagger-ui-bundle.js",
  "swagger-ui-bundle.js.LICENSE.txt",
  "swagger-ui.css",
  "LICENSE",
  "NOTICE",
];

const version = JSON.parse(fs.readFileSync(path.join(from, "package.json"), "utf8")).version;
const pinned = JSON.parse(fs.readFileSync(path.join(__dirname, "package.json"), "utf8")).devDependencies["swagger-ui-dist"];
if (version !== pinned) {
  throw new Error(`node_modules holds swagger-ui-dist ${version}, package.json pins ${pinned}: run npm ci`);
}
fs.mkdirSync(to, { recursive: true });
for (const f of files) {
  fs.copyFileSync(path.join(from, f), path.join(to, f));
}
fs.writeFileSync(path.join(to, "VERSION"), `swagger-ui-dist ${version}\n`);
console.log(`copied swagger-ui-dist ${version}: ${files.join(", ")}`);
