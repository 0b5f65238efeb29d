// ChatMessage: validated creation data (author, whisper recipients, evaluated rolls, speaker ids), the V12
// deprecations and V14's string type, getSpeaker({alias}) and getWhisperRecipients("GM"), the calls the product makes
// (https://foundryvtt.com/api/classes/foundry.documents.ChatMessage.html).

import { checkId, defineFields, env, pickKnown, validationError } from "./core.mjs";
import { Roll } from "./dice.mjs";
import { Document } from "./documents.mjs";

const KEYS = ["_id", "type", "author", "user", "content", "speaker", "whisper", "rolls", "flags"];

/** Store rolls as JSON; a Roll must be evaluated before it is posted (harness choice: only Roll instances) */
function cleanRolls(rolls) {
  return rolls.map((roll, i) => {
    if (!(roll instanceof Roll)) throw validationError("ChatMessage", `rolls.${i}`, "is not a Roll");
    if (!roll._evaluated) throw validationError("ChatMessage", `rolls.${i}`, "the Roll must be evaluated before it is posted");
    return JSON.stringify(roll.toJSON());
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
      env()._deprecate(name, "numeric ChatMessage type is deprecated; use style (V12)");
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
      author,
      content: String(source.content ?? ""),
      speaker: cleanSpeaker(source.speaker),
      whisper,
      rolls: cleanRolls(source.rolls ?? []),
      flags: source.flags ?? {},
    };
  }

  get rolls() {
    return this._source.rolls.map((json) => Roll.fromJSON(json));
  }

  _canCreate(user) {
    return user.isGM || this._source.author === user.id;
  }

  /**
   * The speaker the product asks for: an alias on the active scene. (harness choice) a token, actor or scene
   * argument is not emulated and throws; core would also fall back on a controlled token or the user's character.
   */
  static getSpeaker({ alias, ...rest } = {}) {
    const others = Object.keys(rest).filter((key) => rest[key] !== undefined);
    if (others.length) throw new Error(`harness: ChatMessage.getSpeaker({${others.join(", ")}}) is not emulated`);
    const scene = env()._world.scenes.active?.id ?? null;
    return { scene, actor: null, token: null, alias: alias ?? env().game.user?.name ?? null };
  }

  /** The users "GM" names: the GMs, assistants included, as User documents (whisper takes their ids) */
  static getWhisperRecipients(name) {
    if (String(name).toLowerCase() !== "gm") throw new Error(`harness: getWhisperRecipients("${name}") is not emulated`);
    return env()._world.users.filter((user) => user.isGM);
  }
}
defineFields(ChatMessage, ["type", "content", "speaker", "whisper"]);
