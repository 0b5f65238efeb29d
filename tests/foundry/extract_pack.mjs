// Extract a LevelDB compendium pack with the official Foundry CLI: node extract_pack.mjs PACK_DIR OUT_DIR
import { extractPack } from "@foundryvtt/foundryvtt-cli";

const [pack, out] = process.argv.slice(2);
await extractPack(pack, out, { log: false });
