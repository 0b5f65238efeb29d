// ChatMessage: validated creation data (author, whisper recipients, evaluated rolls, speaker ids), the V12
// deprecations, getSpeaker and getWhisperRecipients
// (https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html).

import { CONST, checkId, defineFields, env, isPlainObject, pickKnown, validationError } from "./core.mjs";
import { Roll } from "./dice.mjs";
import { Document } from "./documents.mjs";

const KEYS = [
  "_id", "type", "style", "author", "user", "content", "flavor", "speaker", "whisper", "blind", "rolls", "sound",
  "emote", "flags", "timestamp", "system", "_stats",
];

/** Store rolls as JSON; a Roll must be evaluated before it is posted */
function cleanRolls(rolls) {
  return rolls.map((roll, i) => {
    if (roll instanceof Roll) {
      if (!roll._evaluated) throw validationError("ChatMessage", `rolls.${i}`, "the Roll must be evaluated before it is posted");
      return JSON.stringify(roll.toJSON());
    }
    const parsed = typeof roll === "string" ? JSON.parse(roll) : roll;
    if (!isPlainObject(parsed) || !Array.isArray(parsed.terms)) {
      throw validationError("ChatMessage", `rolls.${i}`, "is not Roll data");
    }
    return JSON.stringify(parsed);
  });
}

/** A speaker holds ids (strings), never documents */
function cleanSpeaker(speaker = {}) {
  for (const key of ["scene", "actor", "token", "alias"]) {
    const value = speaker[key];
    if (value !== undefined && value !== null && typeof value !== "string") {
      throw validationError("ChatMessage", `speaker.${key}`, "must be a string id (use ChatMessage.getSpeaker)");
    }
  }
  return { scene: speaker.scene ?? null, actor: speaker.actor ?? null, token: speaker.token ?? null, alias: speaker.alias ?? null };
}

export class ChatMessage extends Document {
  static documentName = "ChatMessage";

  static _cleanData(data) {
    const name = "ChatMessage";
    const source = pickKnown(name, { ...data }, KEYS);
    if ("user" in source) {
      env()._deprecate(name, 'ChatMessage "user" is deprecated in favour of "author" (V12)');
      source.author ??= source.user;
    }
    if (typeof source.type === "number" && env().options.generation >= 14) {
      // docs/dev/foundry.md §10: V14's type is a string subtype; a numeric type is rejected
      throw validationError(name, "type", `${source.type} is not a valid type (a string subtype since V14)`);
    }
    if (typeof source.type === "number") {
      env()._deprecate(name, "numeric ChatMessage type is deprecated; use style (CONST.CHAT_MESSAGE_STYLES, V12)");
      delete source.type;
    }
    const users = env()._world.users;
    const author = source.author?.id ?? source.author ?? env()._actingUserId();
    if (!users.has(author)) throw validationError(name, "author", `"${author}" is not a User id`);
    const whisper = (source.whisper ?? []).map((entry) => entry?.id ?? entry);
    for (const id of whisper) if (!users.has(id)) throw validationError(name, "whisper", `"${id}" is not a User id`);
    return {
      _id: checkId(name, source._id ?? null),
      type: source.type ?? "base",
      style: source.style ?? CONST.CHAT_MESSAGE_STYLES.OTHER,
      author,
      content: String(source.content ?? ""),
      flavor: String(source.flavor ?? ""),
      speaker: cleanSpeaker(source.speaker),
      whisper,
      blind: source.blind ?? false,
      rolls: cleanRolls(source.rolls ?? []),
      sound: source.sound ?? null,
      flags: source.flags ?? {},
      timestamp: source.timestamp ?? Date.now(),
    };
  }

  get author() {
    return env()._world.users.get(this._source.author) ?? null;
  }

  get user() {
    env()._deprecate("ChatMessage", "ChatMessage#user is deprecated in favour of ChatMessage#author (V12)");
    return this.author;
  }

  get rolls() {
    return this._source.rolls.map((json) => Roll.fromJSON(json));
  }

  _canCreate(user) {
    return user.isGM || this._source.author === user.id;
  }

  _canUpdate(user) {
    return user.isGM || this._source.author === user.id;
  }

  _canDelete(user) {
    return this._canUpdate(user);
  }

  /** The speaker of a token, an actor (default: the user's character) or the user, with an alias */
  static getSpeaker({ scene, actor, token, alias } = {}) {
    const sceneId = (scene ?? env()._world.scenes.active)?.id ?? null;
    if (token) {
      const actorId = token.actor?.id ?? null;
      return { scene: token.parent?.id ?? sceneId, actor: actorId, token: token.id, alias: alias ?? token.name };
    }
    actor ??= env().game.user?.character ?? null;
    if (actor) return { scene: sceneId, actor: actor.id, token: null, alias: alias ?? actor.name };
    return { scene: sceneId, actor: null, token: null, alias: alias ?? env().game.user?.name ?? null };
  }

  /**
   * docs/dev/foundry.md §10: V13's ChatMessage.applyRollMode(chatData, mode) with publicroll/gmroll/blindroll/selfroll, or
   * "roll" for the user's core.rollMode. Harness choice for what each mode sets: gm and blind whisper the GMs (blind
   * also hides the roll from its author), self whispers the user, public whispers nobody.
   */
  static applyRollMode(chatData, mode) {
    if (env().options.generation >= 14) throw new TypeError("ChatMessage.applyRollMode is not a function (V14: ChatMessage.applyMode)");
    const chosen = mode === "roll" ? env().game.settings.get("core", "rollMode") : mode;
    return applyVisibility(chatData, chosen.replace(/roll$/, ""));
  }

  /** docs/dev/foundry.md §10: V14's ChatMessage.applyMode(chatData, mode) with public/gm/blind/self (as applyRollMode) */
  static applyMode(chatData, mode) {
    if (env().options.generation < 14) throw new TypeError("ChatMessage.applyMode is not a function (V13: ChatMessage.applyRollMode)");
    return applyVisibility(chatData, mode ?? env().game.settings.get("core", "messageMode"));
  }

  /** Users matching "gm", "players" or a user name; returns User documents (whisper takes their ids) */
  static getWhisperRecipients(name) {
    const users = env()._world.users;
    const lowered = String(name).toLowerCase();
    if (lowered === "gm") return users.filter((user) => user.isGM);
    if (lowered === "players") return users.filter((user) => !user.isGM);
    return users.filter((user) => user.name.toLowerCase() === lowered);
  }
}
/** Set whisper and blind for a visibility: public, gm, blind or self */
function applyVisibility(chatData, mode) {
  const gms = () => ChatMessage.getWhisperRecipients("GM").map((user) => user.id);
  if (mode === "public") Object.assign(chatData, { whisper: [], blind: false });
  else if (mode === "gm") Object.assign(chatData, { whisper: gms(), blind: false });
  else if (mode === "blind") Object.assign(chatData, { whisper: gms(), blind: true });
  else if (mode === "self") Object.assign(chatData, { whisper: [env().game.user.id], blind: false });
  else throw new Error(`"${mode}" is not a message mode`);
  return chatData;
}

defineFields(ChatMessage, ["type", "style", "content", "flavor", "speaker", "whisper", "blind", "sound", "timestamp"]);
