// cairn's content browser: read-only, through the REST API itself (JSON). The page names
// the API prefix and vendor (`data-api`, `data-vendor`); the Location shown is the fragment
// (`#1/2/54`, the root's children by default). A login opens a session (cookie and CSRF
// token), as any client of the API does.
"use strict";

const api = document.body.dataset.api;
const vendor = document.body.dataset.vendor;
const media = (type) => `application/vnd.${vendor}.api.${type}+json`;
const $ = (id) => document.getElementById(id);

/** One call of the API; the body of its answer, or an Error with the ErrorMessage's text. */
async function call(method, path, accept, input) {
  const headers = { Accept: media(accept) };
  const token = sessionStorage.getItem("cairn-csrf");
  if (token && method !== "GET") headers["X-CSRF-Token"] = token;
  let body;
  if (input) {
    headers["Content-Type"] = media(input[0]);
    body = JSON.stringify({ [input[0]]: input[1] });
  }
  const r = await fetch(path.startsWith(api) ? path : api + path, {
    method,
    headers,
    body,
    credentials: "same-origin",
  });
  const text = await r.text();
  const json = text ? JSON.parse(text) : {};
  if (!r.ok) {
    const e = json.ErrorMessage;
    throw new Error(e ? `${e.errorCode} ${e.errorMessage}: ${e.errorDescription}` : `${r.status}`);
  }
  return json[accept];
}

/** Text of a field value: strings as they are, rich text as its text, the rest as JSON. */
function valueText(field) {
  const v = field.fieldValue;
  if (v === null || v === undefined) return "";
  if (typeof v !== "object") return String(v);
  if (typeof v.xml === "string") {
    return new DOMParser().parseFromString(v.xml, "application/xml").documentElement.textContent.trim();
  }
  if (typeof v.text === "string") return v.text;
  return JSON.stringify(v, null, 1);
}

/** A request that creates and publishes a folder under the Location at `path`, as admin. */
function firstRequest(path) {
  const body = JSON.stringify({
    ContentCreate: {
      ContentType: { _href: `${api}/content/types/1` },
      mainLanguageCode: "eng-GB",
      LocationCreate: { ParentLocation: { _href: `${api}/content/locations/${path}` } },
      Section: { _href: `${api}/content/sections/1` },
      fields: { field: [{ fieldDefinitionIdentifier: "name", languageCode: "eng-GB", fieldValue: "My first folder" }] },
    },
  });
  return [
    `curl -u admin:publish -H 'Accept: ${media("Content")}' \\`,
    `     -H 'Content-Type: ${media("ContentCreate")}' \\`,
    `     -d '${body}' \\`,
    `     '${location.origin}${api}/content/objects?publish=true'`,
  ].join("\n");
}

function link(path, text) {
  const a = document.createElement("a");
  a.href = `#${path}`;
  a.textContent = text;
  return a;
}

/** The Location at `path` (`1/2/54`): its content item's fields, and its children. */
async function show(path) {
  $("message").textContent = "";
  $("first").hidden = true;
  for (const id of ["trail", "fields", "children", "language"]) $(id).replaceChildren();
  const location = await call("GET", `/content/locations/${path}`, "Location");
  const info = location.ContentInfo.Content;
  $("title").textContent = info.TranslatedName || info.Name || `Location ${location.id}`;
  document.title = `cairn: ${$("title").textContent}`;
  const ids = path.split("/");
  ids.slice(1, -1).forEach((_, i) => {
    $("trail").append(link(ids.slice(0, i + 2).join("/"), `${ids[i + 1]} ›`));
  });
  const [content, children] = await Promise.all([
    call("GET", `/content/objects/${info._id}`, "Content"),
    call("POST", "/views", "View", [
      "ViewInput",
      {
        identifier: "browse",
        LocationQuery: {
          Filter: { ParentLocationIdCriterion: location.id },
          SortClauses: { LocationPriority: "ascending" },
          limit: 100,
        },
      },
    ]),
  ]);
  const version = content.CurrentVersion.Version;
  const fields = version.Fields.field;
  const languages = [...new Set(fields.map((f) => f.languageCode))];
  const wanted = languages.find((l) => l === sessionStorage.getItem("cairn-language"));
  const language = wanted || content.mainLanguageCode;
  if (languages.length > 1) {
    for (const l of languages) $("language").append(new Option(l, l, false, l === language));
    $("languages").hidden = false;
  }
  for (const f of fields.filter((f) => f.languageCode === language)) {
    const dt = document.createElement("dt");
    dt.textContent = f.fieldDefinitionIdentifier;
    const dd = document.createElement("dd");
    dd.textContent = valueText(f);
    $("fields").append(dt, dd);
  }
  const hits = children.Result.searchHits.searchHit;
  for (const hit of hits) {
    const l = hit.value.Location;
    const c = l.ContentInfo.Content;
    const li = document.createElement("li");
    li.append(link(l.pathString.replace(/^\/|\/$/g, ""), c.TranslatedName || c.Name));
    $("children").append(li);
  }
  if (hits.length === 0) {
    $("children").append(Object.assign(document.createElement("li"), { textContent: "none" }));
    $("first-request").textContent = firstRequest(path);
    $("first").hidden = false;
  }
}

function route() {
  const path = decodeURIComponent(location.hash.slice(1)) || "1/2";
  show(path).catch((e) => {
    $("message").textContent = e.message;
  });
}

function signedIn(login) {
  $("who").textContent = login ? `logged in as ${login}` : "";
  $("login").hidden = Boolean(login);
  $("logout").hidden = !login;
}

$("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  try {
    const session = await call("POST", "/user/sessions", "Session", [
      "SessionInput",
      { login: form.get("login"), password: form.get("password") },
    ]);
    sessionStorage.setItem("cairn-csrf", session.csrfToken);
    sessionStorage.setItem("cairn-session", session._href);
    sessionStorage.setItem("cairn-login", form.get("login"));
    signedIn(form.get("login"));
    route();
  } catch (e) {
    $("message").textContent = e.message;
  }
});

$("logout").addEventListener("click", async () => {
  const session = sessionStorage.getItem("cairn-session");
  try {
    if (session) await fetch(session, { method: "DELETE", headers: { "X-CSRF-Token": sessionStorage.getItem("cairn-csrf") }, credentials: "same-origin" });
  } finally {
    sessionStorage.clear();
    signedIn(null);
    route();
  }
});

$("language").addEventListener("change", (event) => {
  sessionStorage.setItem("cairn-language", event.target.value);
  route();
});

window.addEventListener("hashchange", route);
signedIn(sessionStorage.getItem("cairn-login"));
route();
