// The `faultline` command from source, as bin/faultline.mjs runs the built one:
// `node --import tsx tests/helpers/faultline-cli.ts <command> [options]`.
import { main } from "../../src/cli/main";

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
