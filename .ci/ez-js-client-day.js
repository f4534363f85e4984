// An editor's day with the real eZ Platform JavaScript REST client (its dist/CAPI.js, as the
// eZ Platform editor UI loaded it), run in the page by .ci/ez-js-client: log in with a session,
// create a folder draft (the client sends "Section": null), update, publish, add a Location,
// copy, move, hide, list children, trash, restore, URL aliases, Object states, delete a
// Location, log out. Returns what each step answered; throws at the first failure.
async () => {
  const p = (f) => new Promise((ok, ko) => f((err, resp) => err ? ko(new Error(JSON.stringify({msg: err.message, status: resp && resp.status, body: resp && resp.body && resp.body.slice(0, 300)}))) : ok(resp)));
  const agent = new eZ.SessionAuthAgent({login: "admin", password: "publish"});
  const capi = new eZ.CAPI(location.origin, agent, {rootPath: "/api/ezp/v2/"});
  const log = window.__log = [];
  await p((cb) => capi.logIn(cb)); log.push("logIn");
  const cs = capi.getContentService();
  const root = await p((cb) => cs.loadRoot(cb)); log.push("loadRoot " + root.status);
  const lcs = cs.newLocationCreateStruct("/api/ezp/v2/content/locations/1/2");
  const ccs = cs.newContentCreateStruct("/api/ezp/v2/content/types/1", lcs, "eng-GB");
  ccs.addField("name", "Real client folder");
  const created = await p((cb) => cs.createContent(ccs, cb));
  const content = JSON.parse(created.body).Content;
  log.push("createContent " + created.status + " " + content._href);
  const versionHref = content.CurrentVersion.Version._href;
  const cus = cs.newContentUpdateStruct("eng-GB");
  cus.body.VersionUpdate.fields.field.push({fieldDefinitionIdentifier: "name", languageCode: "eng-GB", fieldValue: "Real client folder, edited"});
  const upd = await p((cb) => cs.updateContent(versionHref, cus, cb)); log.push("updateContent " + upd.status);
  const pub = await p((cb) => cs.publishVersion(versionHref, cb)); log.push("publishVersion " + pub.status);
  const info = JSON.parse((await p((cb) => cs.loadContentInfo(content._href, cb))).body).Content;
  const mainLocation = info.MainLocation._href;
  const lcs2 = cs.newLocationCreateStruct("/api/ezp/v2/content/locations/1/43");
  const loc2 = await p((cb) => cs.createLocation(content._href, lcs2, cb)); log.push("createLocation " + loc2.status);
  const copy = await p((cb) => cs.copyContent(content._href, "/api/ezp/v2/content/locations/1/43", cb)); log.push("copyContent " + copy.status);
  const target = JSON.parse((await p((cb) => cs.loadContentInfo(copy.headers ? copy.headers.location || copy.xhr.getResponseHeader("Location") : copy.xhr.getResponseHeader("Location"), cb))).body).Content.MainLocation._href;
  const moved = await p((cb) => cs.moveSubtree(mainLocation, target, cb)); log.push("moveSubtree " + moved.status);
  const movedHref = moved.xhr.getResponseHeader("Location");
  const lus = cs.newLocationUpdateStruct(); lus.body.LocationUpdate.hidden = "true"; lus.body.LocationUpdate.priority = 3; lus.body.LocationUpdate.sortField = "PATH"; lus.body.LocationUpdate.sortOrder = "ASC";
  const hid = await p((cb) => cs.updateLocation(movedHref, lus, cb)); log.push("updateLocation " + hid.status);
  const children = await p((cb) => cs.loadLocationChildren(target, cb)); log.push("loadLocationChildren " + children.status);
  const trashed = await p((cb) => cs.moveSubtree(target, "/api/ezp/v2/content/trash", cb)); log.push("trash " + trashed.status + " " + trashed.xhr.getResponseHeader("Location"));
  const trashHref = trashed.xhr.getResponseHeader("Location");
  const rec = await p((cb) => cs.recover(trashHref, cb)); log.push("recover " + rec.status);
  const restored = rec.xhr.getResponseHeader("Location");
  const aliases = await p((cb) => cs.listLocationAliases(restored, false, cb)); log.push("listLocationAliases " + aliases.status + " " + JSON.parse(aliases.body).UrlAliasRefList.UrlAlias.length);
  const groups = JSON.parse((await p((cb) => cs.loadObjectStateGroups("/api/ezp/v2/content/objectstategroups", cb))).body);
  log.push("loadObjectStateGroups " + groups.ObjectStateGroupList.ObjectStateGroup.length);
  const state = JSON.parse((await p((cb) => cs.loadObjectState("/api/ezp/v2/content/objectstategroups/2/objectstates/2", cb))).body).ObjectState;
  const set = await p((cb) => cs.setContentState(content._href + "/objectstates", {ContentObjectStates: {ObjectState: [{_href: state._href}]}}, cb)); log.push("setContentState " + set.status);
  const got = await p((cb) => cs.getContentState(content._href + "/objectstates", cb)); log.push("getContentState " + got.status);
  const del = await p((cb) => cs.deleteLocation(loc2.xhr.getResponseHeader("Location"), cb)); log.push("deleteLocation " + del.status);
  await p((cb) => capi.logOut(cb)); log.push("logOut");
  return log;
}
