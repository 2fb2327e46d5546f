"""拖拉机 / 升级: the Shengji family of trick-taking games (shared/rules/shengji-2deck.md, SJ2-…;
the three-deck variant SJ3 selects other tables through the same code)."""
