// Reads costdb composition documents with kitsu-core and jsona, the JSON:API
// client libraries integrators use, and checks what each record keeps.
//
//   node check.mjs FULL.json SPARSE.json
//
// FULL is a composition read without fields: both libraries merge the
// attributes into the record, so the attribute `type` (the class code)
// takes the place of the JSON:API type; this is checked so that the day a
// library stops doing it the recipe can be revisited. SPARSE is the same
// composition read with the recipe (fields[compositions] naming every
// attribute but `type`): the record keeps type "compositions" and reads its
// class from composition_type.
import { readFileSync } from 'node:fs'
import { deserialise } from 'kitsu-core'
import jsonaPkg from 'jsona'

const Jsona = jsonaPkg.Jsona ?? jsonaPkg.default ?? jsonaPkg
const jsona = new Jsona()

const [fullPath, sparsePath] = process.argv.slice(2)
if (!fullPath || !sparsePath) {
  console.error('usage: node check.mjs FULL.json SPARSE.json')
  process.exit(2)
}
const read = (p) => JSON.parse(readFileSync(p, 'utf8'))
const full = read(fullPath)
const sparse = read(sparsePath)
const klass = full.data.attributes.type

const failures = []
const check = (what, got, want) => {
  if (got !== want) failures.push(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`)
}

const libs = {
  'kitsu-core deserialise': (doc) => deserialise(structuredClone(doc)).data,
  'jsona deserialize': (doc) => jsona.deserialize(structuredClone(doc)),
}
for (const [name, read] of Object.entries(libs)) {
  const f = read(full)
  check(`${name}, full answer: type (the class overwrites the JSON:API type)`, f.type, klass)
  const s = read(sparse)
  check(`${name}, recipe: type`, s.type, 'compositions')
  check(`${name}, recipe: composition_type`, s.composition_type, klass)
  check(`${name}, recipe: id`, s.id, sparse.data.id)
  check(`${name}, recipe: code`, s.code, sparse.data.attributes.code)
}
if (failures.length > 0) {
  console.error(failures.join('\n'))
  process.exit(1)
}
console.log(`ok: ${Object.keys(libs).join(', ')} keep type "compositions" with the recipe`)
