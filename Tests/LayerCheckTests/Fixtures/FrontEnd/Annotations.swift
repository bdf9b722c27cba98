import Model

func annotated() {
  let a = Category(displayName: "Seed") // layercheck:allow importing a legacy export, see issue 12
  let b = Category(displayName: "No reason") // layercheck:allow
  // layercheck:allow on its own line allows nothing
  let c = Category(displayName: "Next line")
  let d = "// layercheck:allow inside a string is not an annotation"; let e = Record(kind: k)
  let f = Category(displayName: "Other") // layercheck:allowed is not the marker
  let g = [Category(displayName: "x"), Category(displayName: "y")] //layercheck:allow  two on one line, tests
}
