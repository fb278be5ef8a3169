"""The published rulebook site: Markdown pages rendered from the knowledge base.

`ruling.site.pages.SitePages(kb).render()` gives every generated page; `ruling/site/hooks.py`
is the mkdocs hook that adds them (and the questionnaire data) to the build at build time.
"""
