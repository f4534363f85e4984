use super::*;
use crate::field_types::tests::cx;

const DOC: &str = r#"<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ezxhtml="http://ibexa.co/xmlns/dxp/docbook/xhtml" version="5.0-variant ezpublish-1.0"><title ezxhtml:level="2">Hello   world</title><para>See <link xlink:href="ezcontent://57#top">this</link>, <link xlink:href="ezlocation://2">that</link> and <emphasis role="strong">x &amp; y</emphasis>.</para><ezembed xlink:href="ezcontent://12" view="embed"/></section>"#;

#[test]
fn reads_and_writes_docbook() {
    let v = RichTextType::default()
        .from_hash(&map([("xml", DOC.into())]), &cx())
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
    assert_eq!(
        RichTextType::default().location_relations(&v),
        [(RelationKind::Link, 2)]
    );
    let t = RichTextType::default();
    let out = t.to_hash(&v, &cx());
    // Converted once: the second reading is the kept conversion.
    assert_eq!(t.edits.len(), 1);
    assert_eq!(t.to_hash(&v, &cx()), out);
    assert_eq!(t.edits.len(), 1);
    assert_eq!(
        field(&out, "xhtml5edit").as_str().unwrap(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5/edit\"><h2>Hello   world</h2><p>See <a href=\"ezcontent://57#top\">this</a>, <a href=\"ezlocation://2\">that</a> and <strong>x &amp; y</strong>.</p><div data-ezelement=\"ezembed\" data-href=\"ezcontent://12\" data-ezview=\"embed\"></div></section>\n"
    );
    assert!(!RichTextType::default().is_empty(&v));
}

#[test]
fn empty_and_invalid_documents() {
    let empty = RichTextType::default().empty_value();
    assert!(RichTextType::default().is_empty(&empty));
    assert_eq!(
        RichTextType::default().to_hash(&empty, &cx()),
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
            .from_hash(&h, &cx())
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

#[test]
fn attributes_the_editor_is_given() {
    let doc = r#"<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ezxhtml="http://ibexa.co/xmlns/dxp/docbook/xhtml" version="5.0-variant ezpublish-1.0"><para xml:id="p1" ezxhtml:class="lead" ezxhtml:textalign="center"><link xlink:href="https://ex.com" xlink:show="new" xml:id="l1" xlink:title="T" ezxhtml:class="c">x</link><emphasis role="strong" ezxhtml:class="b">y</emphasis><emphasis role="underlined" ezxhtml:class="u">z</emphasis></para><itemizedlist xml:id="ul1" mark="square"><listitem ezxhtml:class="li">a</listitem></itemizedlist><programlisting xml:id="code" language="rust">fn f() {}</programlisting><informaltable ezxhtml:class="t"><tbody><tr><td colspan="2" scope="row">c</td><th rowspan="3">h</th></tr></tbody></informaltable><ezembedinline xlink:href="ezcontent://4" view="line" ezxhtml:class="e"/><eztemplate name="video"><ezconfig/></eztemplate></section>"#;
    let t = RichTextType::default();
    let v = t.from_hash(&map([("xml", doc.into())]), &cx()).unwrap();
    assert_eq!(
        field(&t.to_hash(&v, &cx()), "xhtml5edit").as_str().unwrap(),
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5/edit\"><p id=\"p1\" class=\"lead\" style=\"text-align:center;\"><a href=\"https://ex.com\" target=\"_blank\" id=\"l1\" title=\"T\" class=\"c\">x</a><strong class=\"b\">y</strong><u>z</u></p><ul id=\"ul1\" style=\"list-style-type:square;\"><li class=\"li\">a</li></ul><pre id=\"code\" data-language=\"rust\">fn f() {}</pre><table class=\"t\"><tbody><tr><td colspan=\"2\" scope=\"row\">c</td><th rowspan=\"3\">h</th></tr></tbody></table><span data-ezelement=\"ezembedinline\" data-href=\"ezcontent://4\" data-ezview=\"line\" class=\"e\"></span><div data-ezelement=\"eztemplate\" data-ezname=\"video\"></div></section>\n"
    );
}

/// The body of a converted document (between its root's tags).
fn body(html: &str) -> String {
    let doc = from_html(html).unwrap();
    assert!(doc.starts_with(DECLARATION), "{doc}");
    let marker = "version=\"5.0-variant ezpublish-1.0\">";
    let start = doc.find(marker).unwrap() + marker.len();
    doc[start..doc.len() - "</section>\n".len()].to_string()
}

#[test]
fn html_becomes_docbook_as_the_references_stylesheet_makes_it() {
    assert_eq!(
        body(
            "<h2 class=\"big\">Hi</h2><p style=\"text-align:center;\">A <strong>b</strong> <em>c</em> <u>d</u> <s>e</s> <del>f</del> x<sub>2</sub><sup>3</sup></p>"
        ),
        "<title ezxhtml:level=\"2\" ezxhtml:class=\"big\">Hi</title><para ezxhtml:textalign=\"center\">A <emphasis role=\"strong\">b</emphasis> <emphasis>c</emphasis> <emphasis role=\"underlined\">d</emphasis> <emphasis role=\"strikedthrough\">e</emphasis> <emphasis role=\"strikedthrough\" revisionflag=\"deleted\">f</emphasis> x<subscript>2</subscript><superscript>3</superscript></para>"
    );
    assert_eq!(
        body(
            "<p><a href=\"ezcontent://57\" target=\"_blank\" title=\"T\">go</a><a name=\"top\"></a></p>"
        ),
        "<para><link xlink:href=\"ezcontent://57\" xlink:show=\"new\" xlink:title=\"T\">go</link><anchor xml:id=\"top\"/></para>"
    );
    assert_eq!(
        body("<ul><li>one</li><li><p>two</p></li></ul><ol><li>three</li></ol>"),
        "<itemizedlist><listitem><para>one</para></listitem><listitem><para>two</para></listitem></itemizedlist><orderedlist><listitem><para>three</para></listitem></orderedlist>"
    );
    // Lines of a paragraph; code kept as written; a quote.
    assert_eq!(
        body("<p>a<br/>b</p><pre><code>x &lt; y\n</code></pre><blockquote><p>q</p></blockquote>"),
        "<para><literallayout class=\"normal\">a\nb</literallayout></para><programlisting><![CDATA[x < y\n]]></programlisting><blockquote><para>q</para></blockquote>"
    );
    assert_eq!(
        body(
            "<table><caption>C</caption><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan=\"2\">d</td></tr></tbody></table>"
        ),
        "<table><caption>C</caption><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan=\"2\">d</td></tr></tbody></table>"
    );
    assert_eq!(
        body(
            "<div data-ezelement=\"ezembed\" data-href=\"ezcontent://12\" data-ezview=\"embed\"></div>"
        ),
        "<ezembed xlink:href=\"ezcontent://12\" view=\"embed\"/>"
    );
    // What the field type takes, its relations found.
    let doc = from_html("<p><a href=\"ezcontent://57\">x</a></p>").unwrap();
    let v = RichTextType::default()
        .from_hash(&map([("xml", doc.into())]), &cx())
        .unwrap();
    assert_eq!(
        RichTextType::default().relations(&v),
        [(RelationKind::Link, 57)]
    );
    // Not XML, or a link to nowhere.
    assert!(from_html("<p>a<br>b</p>").is_err());
    assert!(from_html("<p><a>x</a></p>").is_err());
}

/// The output rendering follows the reference's output stylesheet, element by element.
#[test]
fn renders_the_output_as_the_reference_stylesheet() {
    let doc = r#"<section xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:ezxhtml="http://ibexa.co/xmlns/dxp/docbook/xhtml" version="5.0-variant ezpublish-1.0">
  <title>Top</title>
  <section><title ezxhtml:class="t" xml:id="s2">Inner</title></section>
  <para>H<subscript><ezattribute><ezvalue key="k">v</ezvalue></ezattribute>2</subscript>O, <link xlink:href="ezlocation://7#here" xlink:show="new" xlink:title=" ">seven</link>, <link xlink:href="ezcontent://8">gone</link>, <link xlink:href="https://example.com/a?b=1&amp;c=2">out
there</link>.</para>
  <orderedlist numeration="upperroman" ezxhtml:class="l">
    <listitem ezxhtml:class="i"><para>One</para></listitem>
    <listitem><para>Two <emphasis>b</emphasis></para></listitem>
  </orderedlist>
  <programlisting language="rust"><ezattribute><ezvalue key="x">y</ezvalue></ezattribute>fn f() {}</programlisting>
  <table width="50%" style="border-width: 2px;" border="1"><caption>Cap</caption>
    <thead><tr><th scope="col" ezxhtml:width="10">h</th></tr></thead>
    <tbody><tr><td valign="top">a
b</td></tr></tbody>
    <tfoot><tr><td><para>f</para></td></tr></tfoot>
  </table>
</section>"#;
    let url = |t: Target| match t {
        Target::Location(7) => Some("/Seven".to_string()),
        _ => None,
    };
    let html = Document::parse(doc).to_output(&url);
    let expected = [
        "<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5\">",
        "<h1>Top</h1>",
        "<section><h2 class=\"t\" id=\"s2\">Inner</h2></section>",
        "<p>H<sub data-ezattribute-k=\"v\">2</sub>O, ",
        "<a href=\"/Seven#here\" target=\"_blank\">seven</a>, gone, ",
        "<a href=\"https://example.com/a?b=1&amp;c=2\">out<br/>there</a>.</p>",
        "<ol class=\"l\" style=\"list-style-type:upper-roman;\">",
        "<li class=\"i\">One</li>",
        "<li>Two <em>b</em></li>",
        "<pre data-language=\"rust\" data-ezattribute-x=\"y\">fn f() {}</pre>",
        "<table border=\"1\" style=\"width:50%;border-width:2px;\"><caption>Cap</caption>",
        "<thead><tr><th scope=\"col\" style=\"width:10px;\">h</th></tr></thead>",
        "<tbody><tr><td style=\"vertical-align:top;\">a<br/>b</td></tr></tbody>",
        "<tfoot><tr><td><p>f</p></td></tr></tfoot></table>",
    ];
    for e in expected {
        assert!(html.contains(e), "{e} in {html}");
    }
    assert_eq!(
        Document::parse(doc).link_targets(),
        [Target::Content(8), Target::Location(7)]
    );
    assert_eq!(
        Document::parse(EMPTY_XML).to_output(&url),
        format!("{DECLARATION}<section xmlns=\"http://ibexa.co/namespaces/ezpublish5/xhtml5\"/>\n")
    );
}
