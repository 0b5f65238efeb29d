// The notice of what the page could not read of what the browser kept (store.js): the parts it started without, and the
// kept text as it was, to download, until the GM deletes it. It stands above the page, which renders around it, and
// speaks the page's language as the GM changes it.
import { STORAGE_KEY } from "../common/config.js";
import { download, el } from "./dom.js";
import { language, t } from "./i18n.js";
import { forgetDamaged, released } from "./store.js";

/** The catalogue keys this module shows, which the build ships (exporter/targets/strings.py) */
const STRING_KEYS = ["Web.Kept.*"];

/** The name of the downloaded file: the campaign's key, in letters a file name may hold */
const FILE_NAME = `${STORAGE_KEY.replace(/[^A-Za-z0-9_-]+/g, "-")}-damaged.json`;

/** Return the notice's lines for a report of store.js, in the page's language */
function lines(report) {
  if (report.earlier) return [t("Web.Kept.Earlier")];
  const names = report.lost.map((part) => t(`Web.Kept.Part.${part}`));
  const parts = new Intl.ListFormat(language(), { type: "conjunction" }).format(names);
  return [
    report.newer ? t("Web.Kept.Newer") : t("Web.Kept.Damaged"),
    report.newer ? null : report.lost.length ? t("Web.Kept.Lost", { parts }) : t("Web.Kept.NothingLost"),
    t(report.held ? "Web.Kept.Held" : "Web.Kept.SetAside"),
  ].filter(Boolean);
}

/** Render the notice's content: its lines, and the buttons to download the kept text and to delete it */
function content(box, report) {
  const text = report.damaged;
  return [
    ...lines(report).map((line) => el("p", { text: line })),
    el("div", { class: "buttons" },
      el("button", { type: "button", id: "kept-download", class: "primary", text: t("Web.Kept.Download"),
        onclick: () => {
          download(FILE_NAME, text, "application/json");
          released();
        } }),
      el("button", { type: "button", id: "kept-delete", text: t("Web.Kept.Delete"), onclick: () => {
        // Text held in this tab only is let go; text set aside in the browser is deleted there.
        if (report.held) released();
        else forgetDamaged();
        box.remove();
      } })),
  ];
}

/**
 * Show what reading the kept state found, above the page (`app`), where there is kept text to offer: nothing for a
 * state read whole. The words follow the page's language (the lang attribute of the document, which the page sets).
 */
function showKeptNotice(report, app) {
  if (report.damaged === null) return;
  const box = el("section", { id: "kept", class: "notice kept", role: "alert" });
  let shown = language();
  box.replaceChildren(...content(box, report));
  app.before(box);
  new MutationObserver(() => {
    if (!box.isConnected || language() === shown) return;
    shown = language();
    box.replaceChildren(...content(box, report));
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
}

export { STRING_KEYS, showKeptNotice };
