"""Captures the response examples of spec/examples/ from cairn itself.

Usage: capture-examples.py JSON_BASE_URL XML_BASE_URL, two servers on fresh databases (the
examples hold the clean install's ids). Sends the request examples of spec/examples/ to the
first in JSON and to the second in XML, in an order where each refers to what exists (every one
must be accepted), adds a few items of its own (a trashed folder, an image, a bookmark), then
reads on the first server a body of every response type in both formats and writes it, indented,
to spec/examples/<Type>.json and .xml. Run `cargo run -p cairn-codegen -- write` after it.
"""

import base64
import json
import os
import sys
import urllib.error
import urllib.request
from xml.dom import minidom

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "spec", "examples")
P = "/api/ibexa/v2"
ADMIN = "Basic " + base64.b64encode(b"admin:publish").decode()
PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63"
    "f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082")).decode()


class Server:
    def __init__(self, base, fmt):
        self.api, self.fmt = base + P, fmt

    def call(self, method, path, accept=None, fmt="json", input_type=None, body=None, headers=None):
        """One request as admin: (status, text). `input_type` sends that example in self.fmt
        unless `body` (JSON) is given."""
        h = {"Authorization": ADMIN}
        if accept:
            h["Accept"] = f"application/vnd.ibexa.api.{accept}+{fmt}"
        data = None
        if body is not None:
            h["Content-Type"] = f"application/vnd.ibexa.api.{input_type}+json"
            data = json.dumps(body).encode()
        elif input_type:
            h["Content-Type"] = f"application/vnd.ibexa.api.{input_type}+{self.fmt}"
            with open(os.path.join(EXAMPLES, f"{input_type}.{self.fmt}"), "rb") as f:
                data = f.read()
        h.update(headers or {})
        req = urllib.request.Request(self.api + path, data=data, headers=h, method=method)
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()

    def must(self, method, path, input_type=None, **kw):
        status, text = self.call(method, path, input_type=input_type, **kw)
        if status >= 300:
            sys.exit(f"{method} {path} ({input_type}, {self.fmt}): {status} {text[:500]}")
        return text

    def get(self, path, accept):
        """A JSON read."""
        return json.loads(self.must("GET", path, accept=accept))


def tail(href):
    return href.split(P, 1)[1]


def last(href):
    return href.rstrip("/").rsplit("/", 1)[1]


def send_examples(s):
    """Sends every request example; the ids of what they made."""
    ids = {}

    def sent(method, path, input_type, accept):
        text = s.must(method, path, input_type, accept=accept, fmt="json")
        return json.loads(text) if text else None

    # The formats differ only in the body sent; answers are read in JSON.
    ids["section"] = last(sent("POST", "/content/sections", "SectionInput", "Section")["Section"]["_href"])
    c = sent("POST", "/content/objects", "ContentCreate", "ContentInfo")["Content"]
    ids["content"] = cid = str(c["_id"])
    s.must("PUBLISH", f"/content/objects/{cid}/versions/1")
    sent("PATCH", f"/content/objects/{cid}", "ContentUpdate", "ContentInfo")
    draft = sent("COPY", f"/content/objects/{cid}/currentversion", None, "Version")
    ids["version"] = vno = str(draft["Version"]["VersionInfo"]["versionNo"])
    sent("POST", f"/content/objects/{cid}/versions/{vno}/relations", "RelationCreate", "Relation")
    sent("PATCH", f"/content/objects/{cid}/versions/{vno}", "VersionUpdate", "Version")
    s.must("PUBLISH", f"/content/objects/{cid}/versions/{vno}")
    main = s.get(f"/content/objects/{cid}", "ContentInfo")["Content"]["MainLocation"]["_href"]
    ids["location"] = loc = tail(main).split("/content/locations/")[1]
    sent("POST", f"/content/objects/{cid}/locations", "LocationCreate", "Location")
    sent("PATCH", f"/content/locations/{loc}", "LocationUpdate", "Location")

    g = sent("POST", "/content/typegroups", "ContentTypeGroupInput", "ContentTypeGroup")
    ids["typegroup"] = gid = last(g["ContentTypeGroup"]["_href"])
    t = sent("POST", f"/content/typegroups/{gid}/types", "ContentTypeCreate", "ContentType")
    ids["type"] = tid = tail(t["ContentType"]["_href"]).split("/")[3]
    fd = sent("POST", f"/content/types/{tid}/draft/fieldDefinitions", "FieldDefinitionCreate", "FieldDefinition")
    ids["field"] = fdid = last(fd["FieldDefinition"]["_href"])
    sent("PATCH", f"/content/types/{tid}/draft/fieldDefinitions/{fdid}", "FieldDefinitionUpdate", "FieldDefinition")
    sent("PATCH", f"/content/types/{tid}/draft", "ContentTypeUpdate", "ContentTypeInfo")
    s.must("PUBLISH", f"/content/types/{tid}/draft")
    sent("POST", "/content/types/view", "ContentTypeViewInput", "ContentTypeList")

    og = sent("POST", "/content/objectstategroups", "ObjectStateGroupCreate", "ObjectStateGroup")
    ids["stategroup"] = ogid = last(og["ObjectStateGroup"]["_href"])
    st = sent("POST", f"/content/objectstategroups/{ogid}/objectstates", "ObjectStateCreate", "ObjectState")
    ids["state"] = osid = last(st["ObjectState"]["_href"])
    sent("PATCH", f"/content/objectstategroups/{ogid}", "ObjectStateGroupUpdate", "ObjectStateGroup")
    sent("PATCH", f"/content/objectstategroups/{ogid}/objectstates/{osid}", "ObjectStateUpdate", "ObjectState")
    sent("PATCH", f"/content/objects/{cid}/objectstates", "ContentObjectStates", "ContentObjectStates")

    r = sent("POST", "/user/roles", "RoleInput", "Role")
    ids["role"] = rid = last(r["Role"]["_href"])
    p = sent("POST", f"/user/roles/{rid}/policies", "PolicyCreate", "Policy")
    sent("PATCH", tail(p["Policy"]["_href"]), "PolicyUpdate", "Policy")
    sent("POST", "/user/groups/1/5/13/roles", "RoleAssignInput", "RoleAssignmentList")

    ua = sent("POST", "/content/urlaliases", "UrlAliasCreate", "UrlAlias")
    ids["alias"] = last(ua["UrlAlias"]["_href"])
    uw = sent("POST", "/content/urlwildcards", "UrlWildcardCreate", "UrlWildcard")
    ids["wildcard"] = last(uw["UrlWildcard"]["_href"])
    ug = sent("POST", "/user/groups/1/5/subgroups", "UserGroupCreate", "UserGroup")
    ids["group"] = ugp = tail(ug["UserGroup"]["_href"]).split("/user/groups/")[1]
    sent("PATCH", f"/user/groups/{ugp}", "UserGroupUpdate", "UserGroup")
    u = sent("POST", f"/user/groups/{ugp}/users", "UserCreate", "User")
    ids["user"] = uid = last(u["User"]["_href"])
    sent("PATCH", f"/user/users/{uid}", "UserUpdate", "User")
    sent("POST", "/user/sessions", "SessionInput", "Session")
    sent("POST", "/views", "ViewInput", "View")
    return ids


def folder(s, name):
    """A published folder under the root folder: its Location path."""
    c = json.loads(s.must("POST", "/content/objects?publish=true", "ContentCreate", accept="ContentInfo", body={
        "ContentCreate": {
            "ContentType": {"_href": P + "/content/types/1"}, "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": P + "/content/locations/1/2"}},
            "fields": {"field": [{"fieldDefinitionIdentifier": "name", "fieldValue": name}]}}}))
    return tail(c["Content"]["MainLocation"]["_href"]).split("/content/locations/")[1]


def capture(s, ids):
    """Every response type, read in both formats: {(type, format): text}."""
    old = folder(s, "Old news")
    s.must("MOVE", f"/content/locations/{old}", headers={"Destination": P + "/content/trash"})
    trash_item = tail(s.get("/content/trash", "Trash")["Trash"]["TrashItem"][0]["_href"])
    image = json.loads(s.must("POST", "/content/objects?publish=true", "ContentCreate", accept="Content", body={
        "ContentCreate": {
            "ContentType": {"_href": P + "/content/types/5"}, "mainLanguageCode": "eng-GB",
            "LocationCreate": {"ParentLocation": {"_href": P + "/content/locations/1/43/51"}},
            "fields": {"field": [
                {"fieldDefinitionIdentifier": "name", "fieldValue": "Pixel"},
                {"fieldDefinitionIdentifier": "image",
                 "fieldValue": {"fileName": "pixel.png", "data": PNG, "alternativeText": "A pixel"}}]}}}))
    fields = image["Content"]["CurrentVersion"]["Version"]["Fields"]["field"]
    value = next(f for f in fields if f["fieldDefinitionIdentifier"] == "image")["fieldValue"]
    variation = tail(value["variations"]["small"]["href"])
    loc, cid, vno, tid = ids["location"], ids["content"], ids["version"], ids["type"]
    s.must("POST", f"/bookmark/{last(loc)}")
    relation = tail(s.get(f"/content/objects/{cid}/versions/{vno}/relations", "RelationList")
                    ["Relations"]["Relation"][0]["_href"])
    policy = tail(s.get(f"/user/roles/{ids['role']}/policies", "PolicyList")["PolicyList"]["Policy"][0]["_href"])
    # ContentTypeInfo is the answer of a draft's change: a draft, changed twice, then dropped.
    s.must("POST", f"/content/types/{tid}", "ContentTypeUpdate", accept="ContentTypeInfo", body={"ContentTypeUpdate": {}})
    reads = [
        ("Root", "GET", "/"),
        ("Section", "GET", f"/content/sections/{ids['section']}"),
        ("SectionList", "GET", "/content/sections"),
        ("ContentInfo", "GET", f"/content/objects/{cid}"),
        ("Content", "GET", f"/content/objects/{cid}"),
        ("Version", "GET", f"/content/objects/{cid}/versions/{vno}"),
        ("VersionList", "GET", f"/content/objects/{cid}/versions"),
        ("RelationList", "GET", f"/content/objects/{cid}/versions/{vno}/relations"),
        ("Relation", "GET", relation),
        ("ContentObjectStates", "GET", f"/content/objects/{cid}/objectstates"),
        ("ContentImageVariation", "GET", variation),
        ("ContentTypeGroupList", "GET", "/content/typegroups"),
        ("ContentTypeGroup", "GET", f"/content/typegroups/{ids['typegroup']}"),
        ("ContentTypeInfoList", "GET", f"/content/typegroups/{ids['typegroup']}/types"),
        ("ContentTypeList", "GET", f"/content/typegroups/{ids['typegroup']}/types"),
        ("ContentType", "GET", f"/content/types/{tid}"),
        ("FieldDefinitionList", "GET", f"/content/types/{tid}/fieldDefinitions"),
        ("FieldDefinition", "GET", f"/content/types/{tid}/fieldDefinitions/{ids['field']}"),
        ("ContentTypeGroupRefList", "GET", f"/content/types/{tid}/groups"),
        ("ContentTypeInfo", "PATCH", f"/content/types/{tid}/draft", "ContentTypeUpdate"),
        ("CountryList", "GET", "/services/countries"),
        ("EventList", "GET", "/events?limit=3"),
        ("LanguageList", "GET", "/languages"),
        ("Language", "GET", "/languages/eng-GB"),
        ("Location", "GET", f"/content/locations/{loc}"),
        ("LocationList", "GET", f"/content/objects/{cid}/locations"),
        ("ObjectStateGroupList", "GET", "/content/objectstategroups"),
        ("ObjectStateGroup", "GET", f"/content/objectstategroups/{ids['stategroup']}"),
        ("ObjectStateList", "GET", f"/content/objectstategroups/{ids['stategroup']}/objectstates"),
        ("ObjectState", "GET", f"/content/objectstategroups/{ids['stategroup']}/objectstates/{ids['state']}"),
        ("RoleList", "GET", "/user/roles"),
        ("Role", "GET", f"/user/roles/{ids['role']}"),
        ("PolicyList", "GET", f"/user/roles/{ids['role']}/policies"),
        ("Policy", "GET", policy),
        ("RoleAssignmentList", "GET", "/user/groups/1/5/13/roles"),
        ("RoleAssignment", "GET", "/user/groups/1/5/13/roles/3"),
        ("Session", "POST", "/user/sessions", "SessionInput"),
        ("Trash", "GET", "/content/trash"),
        ("TrashItem", "GET", trash_item),
        ("UrlAlias", "GET", f"/content/urlaliases/{ids['alias']}"),
        ("UrlAliasRefList", "GET", "/content/locations/1/2/urlaliases"),
        ("UrlWildcard", "GET", f"/content/urlwildcards/{ids['wildcard']}"),
        ("UrlWildcardList", "GET", "/content/urlwildcards"),
        ("User", "GET", f"/user/users/{ids['user']}"),
        ("UserList", "GET", f"/user/groups/{ids['group']}/users"),
        ("UserRefList", "GET", f"/user/groups/{ids['group']}/users"),
        ("UserGroup", "GET", f"/user/groups/{ids['group']}"),
        ("UserGroupList", "GET", "/user/groups/1/5/subgroups"),
        ("UserGroupRefList", "GET", f"/user/users/{ids['user']}/groups"),
        ("View", "POST", "/views", "ViewInput"),
        ("BookmarkList", "GET", "/bookmark"),
    ]
    out = {}
    for name, method, path, *input_type in reads:
        for fmt in ("json", "xml"):
            out[(name, fmt)] = s.must(method, path, input_type[0] if input_type else None,
                                      accept=name, fmt=fmt)
    # An event of the change feed's stream (text/event-stream): one of the list's, in JSON.
    event = json.loads(out[("EventList", "json")])["EventList"]["Event"][1]
    out[("Event", "json")] = json.dumps({"Event": event})
    # The role's draft exists only between these two calls.
    draft = json.loads(s.must("POST", f"/user/roles/{ids['role']}", accept="RoleDraft"))
    for fmt in ("json", "xml"):
        out[("RoleDraft", fmt)] = s.must("GET", f"/user/roles/{ids['role']}/draft", accept="RoleDraft", fmt=fmt)
    s.must("DELETE", f"/user/roles/{last(draft['Role']['_href'])}/draft")
    s.must("DELETE", f"/content/types/{tid}/draft")
    for fmt in ("json", "xml"):
        status, text = s.call("GET", "/content/objects/999999", accept="ErrorMessage", fmt=fmt)
        assert status == 404, text
        out[("ErrorMessage", fmt)] = text
    return out


def indented(text, fmt):
    if fmt == "json":
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    xml = minidom.parseString(text.encode()).toprettyxml(indent="  ", encoding="UTF-8").decode()
    return "\n".join(line for line in xml.splitlines() if line.strip()) + "\n"


def main():
    first, second = Server(sys.argv[1], "json"), Server(sys.argv[2], "xml")
    ids = send_examples(first)
    send_examples(second)
    bodies = capture(first, ids)
    for (name, fmt), text in sorted(bodies.items()):
        with open(os.path.join(EXAMPLES, f"{name}.{fmt}"), "w") as f:
            f.write(indented(text, fmt))
    print(f"request examples accepted in JSON and XML; {len(bodies)} response examples written")


if __name__ == "__main__":
    main()
