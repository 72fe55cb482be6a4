// Validates Grafana dashboards (the files named on the command line) against the dashboard JSON
// schema that ts-json-schema-generator derives from @grafana/schema's TypeScript types, untouched.
// Prints one line per file, the schema's complaints under an invalid one; exit 1 if any is invalid.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createGenerator } from 'ts-json-schema-generator';

const here = path.dirname(fileURLToPath(import.meta.url));
const types = path.join(here, 'node_modules/@grafana/schema/dist/types/raw/dashboard/x/types.gen.d.ts');
const schema = createGenerator({ path: types, type: 'Dashboard', skipTypeCheck: true }).createSchema('Dashboard');
fs.writeFileSync(path.join(here, 'dashboard.schema.json'), JSON.stringify(schema, null, 2));

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs DASHBOARD.json ...');
  process.exit(2);
}
let invalid = 0;
for (const file of files) {
  const dashboard = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (validate(dashboard)) {
    console.log(`valid: ${file}`);
  } else {
    invalid++;
    console.log(`INVALID: ${file}`);
    for (const error of validate.errors) {
      console.log(`  ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
    }
  }
}
process.exit(invalid > 0 ? 1 : 0);
