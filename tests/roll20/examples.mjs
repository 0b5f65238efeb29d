// The example scripts and the players the Roll20 behaviour tests share. SCRIPTS_DIR holds
// <id>/roll20/<Name>.js for the three example campaigns.
const DIR = process.env.SCRIPTS_DIR;

export const GURPS = { file: `${DIR}/ambush-gurps-example/roll20/AmbushGurpsExample.js`, name: "AmbushGurpsExample" };
export const ADND = { file: `${DIR}/ambush-adnd-example/roll20/AmbushAdndExample.js`, name: "AmbushAdndExample" };
export const FALLOUT = {
  file: `${DIR}/ambush-fallout-example/roll20/AmbushFalloutExample.js`, name: "AmbushFalloutExample",
};
export const GM = "-GM0000000000000001";
export const PLAYER = "-PL0000000000000001";
export const players = [{ id: GM, displayname: "Gina", isGM: true }, { id: PLAYER, displayname: "Pat Doe", isGM: false }];
