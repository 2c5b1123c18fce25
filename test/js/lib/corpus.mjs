// Where the parquet-testing corpus is: a --corpus DIR argument, else
// $PARQUET_TESTING_DIR, else ../shared/testdata/parquet-testing beside the
// repository (as the corpus stages of scripts/test.sh look for it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function corpusDir(argv = process.argv.slice(2)) {
  const i = argv.indexOf('--corpus');
  return (i >= 0 ? argv[i + 1] : null) || process.env.PARQUET_TESTING_DIR ||
    path.resolve(REPO, '..', 'shared', 'testdata', 'parquet-testing');
}
