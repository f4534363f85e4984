use super::*;
use crate::field_types::tests::cx;

const DOC: &str = r#"<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ezxhtml="http://ibexa.co/xmlns/dxp/docbook/xhtml" version="5.0-variant ezpublish-1.0"><title ezxhtml:level="2">Hello   world</title><para>See <link xlink:href="ezcontent://57#top">this</link>, <link xlink:href="ezlocation://2">that</link> and <emphasis role="strong">x &amp; y</emphasis>.</para><ezembed xlink:href="ezcontent://12" view="embed"/></section>"#;

#[test]
fn reads_and_writes_docbook() {
    let c = cx();
    let v = RichTextType::default()
        .from_hash(&map([("xml", DOC.into())]), &c.cx())
        .unwrap();
    let xml = xml_of(&v);
    assert!(xml.starts_with(DECLARATION) && xml.ends_with("</section>\n"));
    assert_eq!(RichTextType::default().name_text(&v), "Hello world");
    assert_eq!(
        RichTextType::default().sort_key(&v),
        SortKey::Text("Hello   world".into())
    );
    assert_eq!(
        RichTextType::default().relations(&v),
        [(RelationKind::Link, 57), (RelationKind::Embed, 12)]
    );
    let t = RichTextType::default();
    let out = t.to_hash(&v, &c.cx());
    // Converted once: the second reading is the kept conversion.
    assert_eq!(t.edits.len(), 1);
    assert_eq!(t.to_hash(&v, &c.cx()), out);
    assert_eq!(t.edits.len(), 1);
    assert_eq!(
        field(&out, "xhtml5edit").as_str().unwrap(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5/edit\"><h2>Hello   world</h2><p>See <a href=\"ezcontent://57#top\">this</a>, <a href=\"ezlocation://2\">that</a> and <strong>x &amp; y</strong>.</p><div data-ezelement=\"ezembed\" data-href=\"ezcontent://12\" data-ezview=\"embed\"></div></section>\n"
    );
    assert!(!RichTextType::default().is_empty(&v));
}

#[test]
fn empty_and_invalid_documents() {
    let c = cx();
    let empty = RichTextType::default().empty_value();
    assert!(RichTextType::default().is_empty(&empty));
    assert_eq!(
        RichTextType::default().to_hash(&empty, &c.cx()),
        map([
            ("xml", EMPTY_XML.into()),
            (
                "xhtml5edit",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5/edit\"/>\n".into()
            )
        ])
    );
    let err = |h: HashValue| {
        RichTextType::default()
            .from_hash(&h, &c.cx())
            .unwrap_err()
            .message
    };
    assert_eq!(
        err(map([("x", 1.into())])),
        "'xml' index is missing in hash."
    );
    assert!(err(map([("xml", "<section>".into())])).contains("Could not create XML document"));
    assert!(err(map([("xml", "<section/>".into())])).contains("DocBook section"));
}
