// The example scripts, the players and the GM's actions the Roll20 behaviour tests share. SCRIPTS_DIR holds
// <id>/roll20/<Name>.js for the example campaigns.
const DIR = process.env.SCRIPTS_DIR;

export const GURPS = { file: `${DIR}/ambush-gurps-example/roll20/AmbushGurpsExample.js`, name: "AmbushGurpsExample" };
export const ADND = { file: `${DIR}/ambush-adnd-example/roll20/AmbushAdndExample.js`, name: "AmbushAdndExample" };
export const FALLOUT = {
  file: `${DIR}/ambush-fallout-example/roll20/AmbushFalloutExample.js`, name: "AmbushFalloutExample",
};
export const DND = { file: `${DIR}/ambush-dnd5e-example/roll20/AmbushDnd5eExample.js`, name: "AmbushDnd5eExample" };
export const GM = "-GM0000000000000001";
export const PLAYER = "-PL0000000000000001";
export const players = [{ id: GM, displayname: "Gina", isGM: true }, { id: PLAYER, displayname: "Pat Doe", isGM: false }];

/** A token row of the turn order */
export const row = (token, pr) => ({ id: token.id, pr: String(pr), custom: "", _pageid: token.get("_pageid") });

/** Send GM commands one after another, each answered before the next */
export async function commands(sb, ...lines) {
  for (const line of lines) {
    sb.user.chat(GM, line);
    await sb.settle();
  }
}

/** Press the tracker's Next, as often as asked, each press answered before the next */
export async function next(sb, times = 1) {
  for (let click = 0; click < times; click += 1) {
    sb.user.advanceTurn();
    await sb.settle();
  }
}
