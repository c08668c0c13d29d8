// The page's language: English or simplified Chinese (简体中文), chosen in the header, kept in
// localStorage, by default the browser's (navigator.language "zh…" gives Chinese). Each text is
// written once in both languages where it is used: tr("Leave", "离开"). Chinese text uses the
// simplified characters only (东 万 发, never their traditional forms), in both interfaces.

const KEY = "paiju.lang";
export const LANGS = { en: "English", zh: "中文" };

function pick() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGS) return saved;
  return (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** "en" or "zh". */
export const LANG = pick();
export const ZH = LANG === "zh";

/** The text in the page's language. */
export function tr(en, zh) {
  return ZH ? zh : en;
}

/** "1 point", "2 points"; in Chinese "1 点", "2 点". */
export function count(n, en, zh, many = `${en}s`) {
  return ZH ? `${n} ${zh}` : `${n} ${n === 1 ? en : many}`;
}

/** Switch the language (the page loads again in it). */
export function setLang(lang) {
  if (!(lang in LANGS) || lang === LANG) return;
  localStorage.setItem(KEY, lang);
  location.reload();
}

/** The static page's texts: each element with data-i18n="English|中文" (its text), or
 * data-i18n-placeholder / data-i18n-title / data-i18n-label (aria-label). */
export function translatePage() {
  document.documentElement.lang = ZH ? "zh-Hans" : "en";
  const both = (v) => v.split("|")[ZH ? 1 : 0];
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = both(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = both(e.dataset.i18nPlaceholder);
  for (const e of document.querySelectorAll("[data-i18n-title]")) e.title = both(e.dataset.i18nTitle);
  for (const e of document.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", both(e.dataset.i18nLabel));
}
