// The world: its collections (game.actors, game.combats, ...) and the test-side helpers that seed or change it.
// Before boot the helpers seed world data (no hooks, as data loaded with the world); after boot they act
// as a GM through the database API, firing hooks.

import { DocumentCollection, acting, randomID } from "./core.mjs";
import { Actor, Scene, TokenDocument, User } from "./documents.mjs";
import { Combat } from "./combat.mjs";

class Combats extends DocumentCollection {
  /** The combat that is active in the viewed scene */
  get active() {
    return this.find((combat) => combat.active);
  }
}

class Scenes extends DocumentCollection {
  get active() {
    return this.find((scene) => scene.active);
  }
}

class Users extends DocumentCollection {
  /**
   * "Get one User who is an active Gamemaster (non-assistant if possible), or null if no active GM
   * is available." (https://foundryvtt.com/api/classes/foundry.documents.collections.Users.html)
   * Among equals the lowest id wins (harness choice; docs/dev/foundry.md §7 gates on activeGM?.isSelf).
   */
  get activeGM() {
    const gms = this.filter((user) => user.active && user.isGM);
    gms.sort((a, b) => b.role - a.role || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return gms[0] ?? null;
  }
}

/** A new world: the users, one active scene, no actors, combats or messages */
export function createWorld(users) {
  const world = {
    users: new Users(), actors: new DocumentCollection(), combats: new Combats(), scenes: new Scenes(),
    messages: new DocumentCollection(),
  };
  for (const data of users) world.users._set(data.id, new User(User._cleanData(data)));
  const scene = new Scene(Scene._cleanData({ _id: "harnessScene0001", name: "Harness Scene", active: true }));
  world.scenes._set(scene.id, scene);
  return world;
}

/** Run fn as a GM: the local user if a GM, else the first active GM as a remote request */
async function asWorld(environment, fn) {
  const users = environment._world.users;
  if (users.get(environment._actingUserId())?.isGM) return fn();
  const gm = users.find((u) => u.isGM && u.active) ?? users.find((u) => u.isGM);
  if (!gm) throw new Error("env helpers need a GM user to change world documents");
  return gm.id === environment.localUserId ? fn() : acting.run({ userId: gm.id }, fn);
}

/** Delete a document: silently before boot, through the database after */
async function worldDelete(environment, doc) {
  if (!doc) throw new Error("nothing to delete");
  if (!environment.booted) {
    doc.collection._delete(doc.id);
    return doc;
  }
  return asWorld(environment, () => doc.delete());
}

/** Methods of FoundryEnvironment that create and delete world documents for tests */
export const worldHelpers = {
  async createActor(data) {
    if (!this.booted) {
      const actor = new Actor(Actor._cleanData({ ...data, _id: data._id ?? randomID(), type: data.type ?? "character" }));
      this._world.actors._set(actor.id, actor);
      return actor;
    }
    return asWorld(this, () => Actor.create({ type: "character", ...data }, { keepId: Boolean(data._id) }));
  },

  async createToken({ actor = null, name, disposition, ...rest } = {}) {
    const scene = this._world.scenes.active;
    const data = { ...rest, name: name ?? actor?.name, actorId: actor?.id ?? null, disposition };
    if (!this.booted) {
      const token = new TokenDocument(TokenDocument._cleanData({ ...data, _id: data._id ?? randomID() }), { parent: scene });
      scene.tokens._set(token.id, token);
      return token;
    }
    const [token] = await asWorld(this, () => scene.createEmbeddedDocuments("Token", [data], { keepId: Boolean(data._id) }));
    return token;
  },

  /** Create an active combat, then its combatants in the given order (as toggling tokens does) */
  async createCombat({ combatants = [], active = true, ...rest } = {}) {
    const toData = ({ token = null, actor = null, ...entry }) => ({
      ...entry,
      tokenId: token?.id ?? null,
      sceneId: token?.parent?.id ?? null,
      actorId: token?.actorId ?? actor?.id ?? null,
    });
    for (const other of this._world.combats) {
      if (active && other.active) other._replaceSource({ ...other._source, active: false });
    }
    if (!this.booted) {
      const data = { ...rest, _id: rest._id ?? randomID(), active, combatants: combatants.map(toData) };
      const combat = new Combat(Combat._cleanData(data));
      this._world.combats._set(combat.id, combat);
      return combat;
    }
    return asWorld(this, async () => {
      const combat = await Combat.create({ ...rest, active });
      if (combatants.length) await combat.createEmbeddedDocuments("Combatant", combatants.map(toData));
      return combat;
    });
  },

  async deleteActor(actorOrId) {
    return worldDelete(this, typeof actorOrId === "string" ? this._world.actors.get(actorOrId) : actorOrId);
  },

  async deleteToken(token) {
    return worldDelete(this, token);
  },

  async deleteCombat(combat) {
    return worldDelete(this, combat);
  },
};

