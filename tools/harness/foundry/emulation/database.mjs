// The database round trip of Document#create/update/delete (https://foundryvtt.com/api/classes/
// foundry.abstract.Document.html, hookEvents.preCreateDocument/createDocument/...): pre-hooks on the
// requesting client (false cancels), one server round trip with the permission check of the requesting user,
// then the change and the hooks that fire on every client. Every write and refusal is recorded.

import { applyChanges, diffChanges, expandedClone, randomID, serverRoundTrip } from "./core.mjs";
import { ActiveEffect, Document, permissionError } from "./documents.mjs";

export class Database {
  constructor(environment) {
    this.env = environment;
  }

  /** Record a refused write and return its error */
  denied(user, action, documentName, id) {
    this.env.deniedWrites.push({ action, documentName, id, userId: user?.id });
    return permissionError(user, action, documentName, id);
  }

  /** One server round trip: other work runs before the result comes back, as over the socket */
  async server(fn) {
    const environment = this.env;
    environment._inflight++;
    environment._activity++;
    try {
      await serverRoundTrip();
      return await fn();
    } catch (error) {
      environment.ui.notifications?.error(error.message);
      throw error;
    } finally {
      environment._inflight--;
      environment._activity++;
    }
  }

  /** Record a write; an update records what the client sent, the diff (core sends the changes that differ only) */
  #recordWrite(action, doc, userId, sent = undefined) {
    this.env.writes.push({ action, documentName: doc.documentName, id: doc.id, userId, ...(sent ? { sent } : {}) });
  }

  #requester() {
    const user = this.env._world.users.get(this.env._actingUserId());
    return { user, userId: user.id, remote: this.env._isRemote() };
  }

  #exists(doc) {
    return doc.collection?.get(doc.id) === doc;
  }

  #assertExists(doc) {
    if (!this.#exists(doc)) throw new Error(`${doc.documentName} [${doc.id}] does not exist`);
  }

  async create(cls, dataArray, operation = {}) {
    const { parent = null, keepId = false, ...options } = operation;
    const name = cls.documentName;
    if (parent) {
      if (!parent.constructor.embedded[name]) throw new Error(`${name} cannot be embedded in ${parent.documentName}`);
      this.#assertExists(parent);
    } else if (this.env._isEmbeddedName(name)) {
      throw new Error(`${name} documents must be created with a parent`);
    }
    const { user, userId, remote } = this.#requester();
    const collection = parent ? parent.getEmbeddedCollection(name) : this.env._worldCollection(name);
    const created = [];
    for (const raw of dataArray) {
      const data = expandedClone(raw instanceof Document ? raw.toObject() : raw ?? {});
      // keepId retains provided ids; otherwise core generates new ones
      if (!keepId || !data._id) data._id = randomID();
      const doc = new cls(cls._cleanData(data), { parent });
      doc._preCreate(data, options, user);
      if (!remote && this.env.Hooks.call(`preCreate${name}`, doc, data, options, userId) === false) continue;
      created.push(doc);
    }
    if (!created.length) return [];
    return this.server(() => {
      for (const doc of created) {
        if (!doc._canCreate(user)) throw this.denied(user, "create", name, doc.id);
        if (collection.has(doc.id)) throw new Error(`${name} [${doc.id}] already exists`);
      }
      for (const doc of created) {
        collection._set(doc.id, doc);
        if (name === "ChatMessage") this.env.messages.push(doc);
        this.#recordWrite("create", doc, userId);
        doc._onCreate(options, userId);
      }
      for (const doc of created) this.env.Hooks.callAll(`create${name}`, doc, options, userId);
      return created;
    });
  }

  async update(entries, options = {}) {
    const { user, userId, remote } = this.#requester();
    const pending = [];
    for (const { doc, changes } of entries) {
      this.#assertExists(doc);
      const data = expandedClone(changes);
      delete data._id;
      if (doc instanceof ActiveEffect) ActiveEffect._migrate(data);
      const diff = diffChanges(doc._source, data);
      // An update that changes nothing is not sent and fires no hooks
      if (!Object.keys(diff).length) continue;
      doc.constructor._cleanSource(applyChanges(doc._source, diff));
      diff._id = doc.id;
      if (!remote && this.env.Hooks.call(`preUpdate${doc.documentName}`, doc, diff, options, userId) === false) continue;
      pending.push({ doc, diff });
    }
    if (!pending.length) return [];
    return this.server(() => {
      for (const { doc, diff } of pending) {
        this.#assertExists(doc);
        if (!doc._canUpdate(user, diff)) throw this.denied(user, "update", doc.documentName, doc.id);
      }
      const sources = pending.map(({ doc, diff }) => doc.constructor._cleanSource(applyChanges(doc._source, diff)));
      for (const [i, { doc, diff }] of pending.entries()) {
        doc._replaceSource(sources[i]);
        this.#recordWrite("update", doc, userId, diff);
        const after = doc._onUpdate(diff, options, userId);
        this.env.Hooks.callAll(`update${doc.documentName}`, doc, diff, options, userId);
        after?.();
      }
      return pending.map(({ doc }) => doc);
    });
  }

  async delete(docs, options = {}) {
    const { user, userId, remote } = this.#requester();
    const pending = [];
    for (const doc of docs) {
      this.#assertExists(doc);
      if (!remote && this.env.Hooks.call(`preDelete${doc.documentName}`, doc, options, userId) === false) continue;
      pending.push(doc);
    }
    if (!pending.length) return [];
    return this.server(() => {
      for (const doc of pending) {
        this.#assertExists(doc);
        if (!doc._canDelete(user)) throw this.denied(user, "delete", doc.documentName, doc.id);
      }
      for (const doc of pending) {
        doc.collection._delete(doc.id);
        this.#recordWrite("delete", doc, userId);
        doc._onDelete(options, userId);
      }
      for (const doc of pending) this.env.Hooks.callAll(`delete${doc.documentName}`, doc, options, userId);
      return pending;
    });
  }
}
