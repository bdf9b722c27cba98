/// The recipe-line table of issue 17: lines in the forms cooks write, each with the parse
/// it should get. `RecipeLineTableTests` checks every row, and computes the accuracy by
/// form that `Docs/NORMALIZATION.md` reports.
///
/// One row per line, fields separated by " | ":
///
///     form | line | quantity | unit | name | notes | package size | equivalent
///
/// - quantity: a number, a fraction ("1/3") or a range ("1-2"); "-" for none.
/// - unit, package size, equivalent: canonical units ("14.5 oz", "240 ml"); "-" for none.
/// - notes: the expected notes, "-" for none, "*" when the row does not check them.
/// - form: the form the line is written in. "limit:" before it marks a line the parser
///   is known to misread (the expected parse is still the right one); those are listed in
///   the docs as what it does not read.
///
/// The rows of the first twelve forms were generated from lists of foods, units and
/// written forms (with their expected parse worked out from what was written, not from
/// the parser); "real", "no amount" and "unsure" are lines as recipes print them.
enum RecipeLineTable {
  static let text = """
    basic | 500ml basmati rice | 500 | ml | basmati rice | * | - | -
    basic | 3 lbs baking soda | 3 | lb | baking soda | * | - | -
    basic | 200 fl oz mascarpone | 200 | fl oz | mascarpone | * | - | -
    basic | 1 Tbsp rice vinegar | 1 | tbsp | rice vinegar | * | - | -
    basic | 250kg maple syrup | 250 | kg | maple syrup | * | - | -
    basic | 200 grams cheddar | 200 | g | cheddar | * | - | -
    basic | 3 kg chocolate chips | 3 | kg | chocolate chips | * | - | -
    basic | 500 teaspoons brown sugar | 500 | tsp | brown sugar | * | - | -
    basic | 250 teaspoons butter | 250 | tsp | butter | * | - | -
    basic | 500 fl oz Greek yogurt | 500 | fl oz | greek yogurt | * | - | -
    basic | 6 ounces spinach | 6 | oz | spinach | * | - | -
    basic | 250 Tbsp Greek yogurt | 250 | tbsp | greek yogurt | * | - | -
    basic | 5 tbsp sesame oil | 5 | tbsp | sesame oil | * | - | -
    basic | 12 tbsp ground cumin | 12 | tbsp | ground cumin | * | - | -
    basic | 200 teaspoons cocoa powder | 200 | tsp | cocoa powder | * | - | -
    basic | 6 quarts ground cumin | 6 | quart | ground cumin | * | - | -
    basic | 6 ml all-purpose flour | 6 | ml | all-purpose flour | * | - | -
    basic | 1 g ricotta | 1 | g | ricotta | * | - | -
    basic | 8 cups baking soda | 8 | cup | baking soda | * | - | -
    basic | 12 Tbsp maple syrup | 12 | tbsp | maple syrup | * | - | -
    basic | 12 oz unsalted butter | 12 | oz | unsalted butter | * | - | -
    basic | 5 tablespoons baking soda | 5 | tbsp | baking soda | * | - | -
    basic | 4 pounds milk | 4 | lb | milk | * | - | -
    basic | 12 fl oz breadcrumbs | 12 | fl oz | breadcrumbs | * | - | -
    basic | 5 teaspoons tomato paste | 5 | tsp | tomato paste | * | - | -
    basic | 6 lbs frozen peas | 6 | lb | frozen peas | * | - | -
    basic | 6 tsp rolled oats | 6 | tsp | rolled oats | * | - | -
    basic | 6 pounds heavy cream | 6 | lb | heavy cream | * | - | -
    basic | 500 tablespoons flour | 500 | tbsp | flour | * | - | -
    basic | 10 cups baking powder | 10 | cup | baking powder | * | - | -
    basic | 10 pounds breadcrumbs | 10 | lb | breadcrumbs | * | - | -
    basic | 250 tablespoons sesame oil | 250 | tbsp | sesame oil | * | - | -
    basic | 5 lbs butter | 5 | lb | butter | * | - | -
    basic | 1 pint milk | 1 | pint | milk | * | - | -
    basic | 200 quarts fish sauce | 200 | quart | fish sauce | * | - | -
    basic | 10 kg chicken stock | 10 | kg | chicken stock | * | - | -
    basic | 3kg coconut milk | 3 | kg | coconut milk | * | - | -
    basic | 200 teaspoons soy sauce | 200 | tsp | soy sauce | * | - | -
    basic | 1 ounce water | 1 | oz | water | * | - | -
    basic | 500 lbs Greek yogurt | 500 | lb | greek yogurt | * | - | -
    basic | 6 zucchini | 6 | - | zucchini | * | - | -
    basic | 3 onions | 3 | - | onions | * | - | -
    basic | 2 chicken breasts | 2 | - | chicken breasts | * | - | -
    basic | 5 apples | 5 | - | apples | * | - | -
    basic | 8 celery stalks | 8 | - | celery stalks | * | - | -
    basic | 9 carrots | 9 | - | carrots | * | - | -
    basic | 4 shallots | 4 | - | shallots | * | - | -
    basic | 5 jalapeños | 5 | - | jalapenos | * | - | -
    basic | 3 tortillas | 3 | - | tortillas | * | - | -
    basic | 1 apples | 1 | - | apples | * | - | -
    basic | 10 garlic cloves | 10 | - | garlic cloves | * | - | -
    basic | 9 shallots | 9 | - | shallots | * | - | -
    basic | 9 chicken breasts | 9 | - | chicken breasts | * | - | -
    fraction | 2 ½ ounces sesame oil | 2.5 | oz | sesame oil | * | - | -
    fraction | ⅔ ounces honey | 0.666667 | oz | honey | * | - | -
    fraction | 3.75 cups peanut butter | 3.75 | cup | peanut butter | * | - | -
    fraction | 3 ⅔ cups smoked paprika | 3.666667 | cup | smoked paprika | * | - | -
    fraction | 1¾ tablespoons tomato paste | 1.75 | tbsp | tomato paste | * | - | -
    fraction | 2⅔ tablespoons vegetable oil | 2.666667 | tbsp | vegetable oil | * | - | -
    fraction | 3 1/2 pounds dried oregano | 3.5 | lb | dried oregano | * | - | -
    fraction | 3,5 cups basmati rice | 3.5 | cup | basmati rice | * | - | -
    fraction | 3 ¼ ounces dried oregano | 3.25 | oz | dried oregano | * | - | -
    fraction | 2 1/4 pounds Greek yogurt | 2.25 | lb | greek yogurt | * | - | -
    fraction | 1/3 teaspoons lemon juice | 0.333333 | tsp | lemon juice | * | - | -
    fraction | ⅓ teaspoons cornstarch | 0.333333 | tsp | cornstarch | * | - | -
    fraction | 1/8 pounds heavy cream | 0.125 | lb | heavy cream | * | - | -
    fraction | 1.5 ounces water | 1.5 | oz | water | * | - | -
    fraction | 2.5 cups mascarpone | 2.5 | cup | mascarpone | * | - | -
    fraction | 1/4 cups red lentils | 0.25 | cup | red lentils | * | - | -
    fraction | 0.25 pounds brown sugar | 0.25 | lb | brown sugar | * | - | -
    fraction | 3.25 teaspoons rice vinegar | 3.25 | tsp | rice vinegar | * | - | -
    fraction | 1 3/4 cups ground cinnamon | 1.75 | cup | ground cinnamon | * | - | -
    fraction | 1⅛ cups ricotta | 1.125 | cup | ricotta | * | - | -
    fraction | 0.5 cups rolled oats | 0.5 | cup | rolled oats | * | - | -
    fraction | ¼ teaspoons parmesan | 0.25 | tsp | parmesan | * | - | -
    fraction | 2⅛ cups maple syrup | 2.125 | cup | maple syrup | * | - | -
    fraction | 1 ¼ tablespoons spinach | 1.25 | tbsp | spinach | * | - | -
    fraction | ¾ pounds unsalted butter | 0.75 | lb | unsalted butter | * | - | -
    fraction | 3-1/4 ounces whole milk | 3.25 | oz | whole milk | * | - | -
    fraction | 0,5 pounds mascarpone | 0.5 | lb | mascarpone | * | - | -
    fraction | 1-3/4 pounds olive oil | 1.75 | lb | olive oil | * | - | -
    fraction | 3 ½ ounces lemon juice | 3.5 | oz | lemon juice | * | - | -
    fraction | 2.25 tablespoons olive oil | 2.25 | tbsp | olive oil | * | - | -
    fraction | ¾ ounces Greek yogurt | 0.75 | oz | greek yogurt | * | - | -
    fraction | 3 ⅔ ounces maple syrup | 3.666667 | oz | maple syrup | * | - | -
    fraction | ⅛ cups baking soda | 0.125 | cup | baking soda | * | - | -
    fraction | 0.25 cups parmesan | 0.25 | cup | parmesan | * | - | -
    fraction | 1 1/2 tablespoons maple syrup | 1.5 | tbsp | maple syrup | * | - | -
    multiplier | 3 x 400 ml tins frozen peas | 3 | can | frozen peas | * | 400 ml | -
    multiplier | 3x250ml packages passata | 3 | package | passata | * | 250 ml | -
    multiplier | 4 x 200 ml jars tuna | 4 | jar | tuna | * | 200 ml | -
    multiplier | 2 x 200 g pork chops | 2 | - | pork chops | * | 200 g | -
    multiplier | 2 x 250 ml jars frozen peas | 2 | jar | frozen peas | * | 250 ml | -
    multiplier | 2x410g packets diced tomatoes | 2 | package | tomatoes | * | 410 g | -
    multiplier | 3x400ml packets tofu | 3 | package | tofu | * | 400 ml | -
    multiplier | 3 x 200 ml tins frozen peas | 3 | can | frozen peas | * | 200 ml | -
    multiplier | 3 x 500 g bags coconut milk | 3 | bag | coconut milk | * | 500 g | -
    multiplier | 3x500g packets chickpeas | 3 | package | chickpeas | * | 500 g | -
    multiplier | 2 x 410 g cod fillets | 2 | - | cod fillets | * | 410 g | -
    multiplier | 2 x 400 ml bags black beans | 2 | bag | black beans | * | 400 ml | -
    multiplier | 3x250g bags chicken stock | 3 | bag | chicken stock | * | 250 g | -
    multiplier | 2 x 400 g cod fillets | 2 | - | cod fillets | * | 400 g | -
    multiplier | 4 x 400 g bags chicken stock | 4 | bag | chicken stock | * | 400 g | -
    multiplier | 3 x 400 g tins diced tomatoes | 3 | can | tomatoes | * | 400 g | -
    multiplier | 2x120g bags frozen peas | 2 | bag | frozen peas | * | 120 g | -
    multiplier | 2x250ml packets diced tomatoes | 2 | package | tomatoes | * | 250 ml | -
    multiplier | 4 x 250 g jars chicken stock | 4 | jar | chicken stock | * | 250 g | -
    multiplier | 4x120g jars tuna | 4 | jar | tuna | * | 120 g | -
    multiplier | 3 x 400 g cans puff pastry | 3 | can | puff pastry | * | 400 g | -
    multiplier | 3x400ml cartons cream cheese | 3 | carton | cream cheese | * | 400 ml | -
    multiplier | 3 x 250 g cans yogurt | 3 | can | yogurt | * | 250 g | -
    multiplier | 4 x 200 ml cans cream cheese | 4 | can | cream cheese | * | 200 ml | -
    multiplier | 4 x 400 g salmon fillets | 4 | - | salmon fillets | * | 400 g | -
    multiplier | 2 x 410 ml jars tofu | 2 | jar | tofu | * | 410 ml | -
    multiplier | 4 x 120 g bags diced tomatoes | 4 | bag | tomatoes | * | 120 g | -
    multiplier | 3x500ml packages coconut milk | 3 | package | coconut milk | * | 500 ml | -
    multiplier | 4 x 120 ml bags cream cheese | 4 | bag | cream cheese | * | 120 ml | -
    multiplier | 4x400g packages diced tomatoes | 4 | package | tomatoes | * | 400 g | -
    range | 4 teaspoons to 5 teaspoons ricotta | 4-5 | tsp | ricotta | * | - | -
    range | 4 - 6 pounds whole milk | 4-6 | lb | whole milk | * | - | -
    range | 2–3 pounds chocolate chips | 2-3 | lb | chocolate chips | * | - | -
    range | between 2 and 3 cups spinach | 2-3 | cup | spinach | * | - | -
    range | 1 ounce-2 ounces breadcrumbs | 1-2 | oz | breadcrumbs | * | - | -
    range | between 4 and 6 ounces brown sugar | 4-6 | oz | brown sugar | * | - | -
    range | 4-to-5 tablespoons Dijon mustard | 4-5 | tbsp | dijon mustard | * | - | -
    range | 3–5 tablespoons cornstarch | 3-5 | tbsp | cornstarch | * | - | -
    range | 1–1½ pound unsalted butter | 1-1.5 | lb | unsalted butter | * | - | -
    range | 4 ounces-6 ounces unsalted butter | 4-6 | oz | unsalted butter | * | - | -
    range | 2-to-3 cups fish sauce | 2-3 | cup | fish sauce | * | - | -
    range | 1–3 teaspoons flour | 1-3 | tsp | flour | * | - | -
    range | 1-2 ounces smoked paprika | 1-2 | oz | smoked paprika | * | - | -
    range | 3 to 5 pounds sesame oil | 3-5 | lb | sesame oil | * | - | -
    range | between 3 and 4 pounds baking powder | 3-4 | lb | baking powder | * | - | -
    range | 4 to 5 ounces Dijon mustard | 4-5 | oz | dijon mustard | * | - | -
    range | 4 tablespoons to 5 tablespoons all-purpose flour | 4-5 | tbsp | all-purpose flour | * | - | -
    range | 1 cup-2 cups coconut milk | 1-2 | cup | coconut milk | * | - | -
    range | 1-to-3 ounces kosher salt | 1-3 | oz | kosher salt | * | - | -
    range | 1–3 tablespoons butter | 1-3 | tbsp | butter | * | - | -
    range | 2–4 ounces vegetable broth | 2-4 | oz | vegetable broth | * | - | -
    range | 4 to 5 ounces soy sauce | 4-5 | oz | soy sauce | * | - | -
    range | between 4 and 5 tablespoons heavy cream | 4-5 | tbsp | heavy cream | * | - | -
    range | 3 teaspoons to 5 teaspoons heavy cream | 3-5 | tsp | heavy cream | * | - | -
    range | 4 pounds to 5 pounds soy sauce | 4-5 | lb | soy sauce | * | - | -
    range | 2 - 3 tablespoons rice vinegar | 2-3 | tbsp | rice vinegar | * | - | -
    range | 1-to-2 teaspoons sugar | 1-2 | tsp | sugar | * | - | -
    range | ¼–½ teaspoon baking powder | 0.25-0.5 | tsp | baking powder | * | - | -
    range | 1-3 pounds olive oil | 1-3 | lb | olive oil | * | - | -
    range | 4–6 ounces raisins | 4-6 | oz | raisins | * | - | -
    range | 4-5 pounds basmati rice | 4-5 | lb | basmati rice | * | - | -
    range | 2 cups-4 cups whole milk | 2-4 | cup | whole milk | * | - | -
    range | 2 to 4 cups red lentils | 2-4 | cup | red lentils | * | - | -
    range | 3 tablespoons to 5 tablespoons cornstarch | 3-5 | tbsp | cornstarch | * | - | -
    range | 4 pounds-6 pounds honey | 4-6 | lb | honey | * | - | -
    range | 4 tablespoons to 6 tablespoons unsalted butter | 4-6 | tbsp | unsalted butter | * | - | -
    range | 1 to 3 teaspoons Greek yogurt | 1-3 | tsp | greek yogurt | * | - | -
    range | 1 - 3 cups rolled oats | 1-3 | cup | rolled oats | * | - | -
    range | 1 - 2 teaspoons whole milk | 1-2 | tsp | whole milk | * | - | -
    range | 2 teaspoons to 4 teaspoons ricotta | 2-4 | tsp | ricotta | * | - | -
    range | 4-to-6 tablespoons rolled oats | 4-6 | tbsp | rolled oats | * | - | -
    range | 4-to-5 tablespoons peanut butter | 4-5 | tbsp | peanut butter | * | - | -
    range | 1-to-3 tablespoons tomato paste | 1-3 | tbsp | tomato paste | * | - | -
    range | 3–4 teaspoons cocoa powder | 3-4 | tsp | cocoa powder | * | - | -
    range | between 3 and 5 tablespoons dried oregano | 3-5 | tbsp | dried oregano | * | - | -
    range | 4 or 5 carrots | 4-5 | - | carrots | * | - | -
    range | 4 or 5 bananas | 4-5 | - | bananas | * | - | -
    range | 1 or 2 celery stalks | 1-2 | - | celery stalks | * | - | -
    range | 2 or 3 bay leaves | 2-3 | - | bay leaves | * | - | -
    range | 3 or 4 chicken breasts | 3-4 | - | chicken breasts | * | - | -
    range | 2 or 3 eggs | 2-3 | - | eggs | * | - | -
    range | 4 or 5 onions | 4-5 | - | onions | * | - | -
    range | 1 or 2 apples | 1-2 | - | apples | * | - | -
    number words | eighty two leeks | 82 | - | leeks | * | - | -
    number words | forty seven bay leaves | 47 | - | bay leaves | * | - | -
    number words | Thirty-two onions | 32 | - | onions | * | - | -
    number words | five chicken breasts | 5 | - | chicken breasts | * | - | -
    number words | seventy nine bell peppers | 79 | - | bell peppers | * | - | -
    number words | Eighty three leeks | 83 | - | leeks | * | - | -
    number words | thirty-seven bay leaves | 37 | - | bay leaves | * | - | -
    number words | one onions | 1 | - | onions | * | - | -
    number words | two bell peppers | 2 | - | bell peppers | * | - | -
    number words | Seventeen jalapeños | 17 | - | jalapenos | * | - | -
    number words | twelve zucchini | 12 | - | zucchini | * | - | -
    number words | twenty-six onions | 26 | - | onions | * | - | -
    number words | seventy two bananas | 72 | - | bananas | * | - | -
    number words | fifty-five bell peppers | 55 | - | bell peppers | * | - | -
    number words | thirty six tortillas | 36 | - | tortillas | * | - | -
    number words | sixty-nine bay leaves | 69 | - | bay leaves | * | - | -
    number words | twenty leeks | 20 | - | leeks | * | - | -
    number words | fifty nine potatoes | 59 | - | potatoes | * | - | -
    number words | Fifteen apples | 15 | - | apples | * | - | -
    number words | twenty six tomatoes | 26 | - | tomatoes | * | - | -
    number words | a dozen eggs | 1 | dozen | eggs | * | - | -
    number words | half a dozen eggs | 0.5 | dozen | eggs | * | - | -
    number words | two dozen quail eggs | 2 | dozen | quail eggs | * | - | -
    number words | half a cup milk | 0.5 | cup | milk | * | - | -
    number words | half a lemon | 0.5 | - | lemon | * | - | -
    number words | half an onion | 0.5 | - | onion | * | - | -
    number words | half cup sugar | 0.5 | cup | sugar | * | - | -
    number words | one and a half cups flour | 1.5 | cup | flour | * | - | -
    number words | two and a half cups stock | 2.5 | cup | stock | * | - | -
    number words | one and one-half teaspoons salt | 1.5 | tsp | salt | * | - | -
    number words | two thirds cup milk | 0.666667 | cup | milk | * | - | -
    number words | two-thirds cup milk | 0.666667 | cup | milk | * | - | -
    number words | three quarters cup sugar | 0.75 | cup | sugar | * | - | -
    number words | a third cup honey | 0.333333 | cup | honey | * | - | -
    number words | a quarter cup oil | 0.25 | cup | oil | * | - | -
    number words | a half teaspoon salt | 0.5 | tsp | salt | * | - | -
    number words | one half cup butter | 0.5 | cup | butter | * | - | -
    number words | a quarter of a cup cream | 0.25 | cup | cream | * | - | -
    number words | a couple of sprigs thyme | 2 | sprig | thyme | * | - | -
    number words | a couple of eggs | 2 | - | eggs | * | - | -
    number words | couple of bay leaves | 2 | - | bay leaves | * | - | -
    number words | a pinch of salt | 1 | pinch | salt | * | - | -
    number words | a pinch of saffron | 1 | pinch | saffron | * | - | -
    number words | a handful of basil | 1 | handful | basil | * | - | -
    number words | a dash of Worcestershire sauce | 1 | dash | worcestershire sauce | * | - | -
    number words | a knob of butter | 1 | knob | butter | * | - | -
    number words | three to four sprigs thyme | 3-4 | sprig | thyme | * | - | -
    number words | two to three cloves garlic | 2-3 | clove | garlic | * | - | -
    number words | one or two chillies | 1-2 | - | chillies | * | - | -
    number words | twelve ounces pasta | 12 | oz | pasta | * | - | -
    number words | twenty five almonds | 25 | - | almonds | * | - | -
    number words | ninety-nine red balloons | 99 | - | red balloons | * | - | -
    number words | Two cups rice | 2 | cup | rice | * | - | -
    number words | a 400 g tin of tomatoes | 1 | can | tomatoes | * | 400 g | -
    number words | an 8-ounce package cream cheese | 1 | package | cream cheese | * | 8 oz | -
    number words | a few sprigs of rosemary | - | sprig | rosemary | * | - | -
    number words | a few drops vanilla extract | - | drop | vanilla extract | * | - | -
    number words | several sprigs parsley | - | sprig | parsley | * | - | -
    number words | a few basil leaves | - | - | basil leaves | * | - | -
    number words | some salt | - | - | salt | * | - | -
    package | one 400g container frozen peas | 1 | container | frozen peas | * | 400 g | -
    package | 3 12-ounce pouches puff pastry | 3 | pouch | puff pastry | * | 12 oz | -
    package | 3 6 oz cartons crushed tomatoes | 3 | carton | tomatoes | * | 6 oz | -
    package | 1 8-ounce bottle coconut milk | 1 | bottle | coconut milk | * | 8 oz | -
    package | 1 12 oz bottle cream cheese | 1 | bottle | cream cheese | * | 12 oz | -
    package | 1 (14.5 oz) pouch passata | 1 | pouch | passata | * | 14.5 oz | -
    package | 2 (12-oz) jars frozen peas | 2 | jar | frozen peas | * | 12 oz | -
    package | 2 14.5 oz tubs chickpeas | 2 | tub | chickpeas | * | 14.5 oz | -
    package | 1 14-ounce bottle cream cheese | 1 | bottle | cream cheese | * | 14 oz | -
    package | two 400g cartons frozen peas | 2 | carton | frozen peas | * | 400 g | -
    package | 2 (14-oz) boxes tofu | 2 | box | tofu | * | 14 oz | -
    package | 3 15 oz packets coconut milk | 3 | package | coconut milk | * | 15 oz | -
    package | 3 (16 oz) cartons cream cheese | 3 | carton | cream cheese | * | 16 oz | -
    package | 3 14.5-oz cans coconut milk | 3 | can | coconut milk | * | 14.5 oz | -
    package | 2 (28 oz) jars coconut milk | 2 | jar | coconut milk | * | 28 oz | -
    package | 3 (14-ounce) bags black beans | 3 | bag | black beans | * | 14 oz | -
    package | 2 (6 oz) cartons tuna | 2 | carton | tuna | * | 6 oz | -
    package | 2 (14.5 oz) jars tuna | 2 | jar | tuna | * | 14.5 oz | -
    package | 2 8-oz sheets cream cheese | 2 | sheet | cream cheese | * | 8 oz | -
    package | 2 (15 oz) cartons chickpeas | 2 | carton | chickpeas | * | 15 oz | -
    package | 3 (28-oz) jars cream cheese | 3 | jar | cream cheese | * | 28 oz | -
    package | two 200g jars diced tomatoes | 2 | jar | tomatoes | * | 200 g | -
    package | 2 12-oz boxes cream cheese | 2 | box | cream cheese | * | 12 oz | -
    package | one 500g can frozen peas | 1 | can | frozen peas | * | 500 g | -
    package | 3 (15 oz) cans black beans | 3 | can | black beans | * | 15 oz | -
    package | 1 6 oz tin puff pastry | 1 | can | puff pastry | * | 6 oz | -
    package | 1 (6-oz) bottle yogurt | 1 | bottle | yogurt | * | 6 oz | -
    package | one 200g can coconut milk | 1 | can | coconut milk | * | 200 g | -
    package | 1 (15-ounce) tub cream cheese | 1 | tub | cream cheese | * | 15 oz | -
    package | 1 12 oz bottle crushed tomatoes | 1 | bottle | tomatoes | * | 12 oz | -
    package | 3 (6 oz) tins yogurt | 3 | can | yogurt | * | 6 oz | -
    package | two 500g bags cream cheese | 2 | bag | cream cheese | * | 500 g | -
    package | 2 12 oz bags coconut milk | 2 | bag | coconut milk | * | 12 oz | -
    package | 2 8 oz containers crushed tomatoes | 2 | container | tomatoes | * | 8 oz | -
    package | 3 (14.5-oz) pouches black beans | 3 | pouch | black beans | * | 14.5 oz | -
    package | 2 cans (15 oz each) black beans | 2 | can | black beans | * | 15 oz | -
    package | 1 can (400 ml) coconut milk | 1 | can | coconut milk | * | 400 ml | -
    package | 1 (2-inch) piece ginger | 1 | piece | ginger | * | 2 inch | -
    package | 1 2-inch piece ginger | 1 | piece | ginger | * | 2 inch | -
    package | 2 (8 oz) packages cream cheese | 2 | package | cream cheese | * | 8 oz | -
    package | 1 (1 lb) bag carrots | 1 | bag | carrots | * | 1 lb | -
    package | 1 (750 ml) bottle red wine | 1 | bottle | red wine | * | 750 ml | -
    package | 1 bunch cilantro | 1 | bunch | cilantro | * | - | -
    package | 2 sprigs rosemary | 2 | sprig | rosemary | * | - | -
    package | 1 stick butter | 1 | stick | butter | * | - | -
    package | 1 head garlic | 1 | head | garlic | * | - | -
    package | 2 cubes chicken bouillon | 2 | cube | chicken bouillon | * | - | -
    package | 4 slices bread | 4 | slice | bread | * | - | -
    package | 2 fillets salmon | 2 | fillet | salmon | * | - | -
    package | 1 sheet puff pastry | 1 | sheet | puff pastry | * | - | -
    package | 3 ears corn | 3 | ear | corn | * | - | -
    package | 1 bulb fennel | 1 | bulb | fennel | * | - | -
    package | 1 punnet strawberries | 1 | punnet | strawberries | * | - | -
    package | 1 tube tomato paste | 1 | tube | tomato paste | * | - | -
    package | 1 envelope gelatin | 1 | envelope | gelatin | * | - | -
    package | 4 strips bacon | 4 | strip | bacon | * | - | -
    package | 1 loaf sourdough | 1 | loaf | sourdough | * | - | -
    package | 2 containers yogurt | 2 | container | yogurt | * | - | -
    two measures | 1 cup / 240 ml spinach | 1 | cup | spinach | * | - | 240 ml
    two measures | ½ cup (120 ml) walnuts | 0.5 | cup | walnuts | * | - | 120 ml
    two measures | 1 tbsp / 15 ml all-purpose flour | 1 | tbsp | all-purpose flour | * | - | 15 ml
    two measures | ½ cup / 120 ml vegetable oil | 0.5 | cup | vegetable oil | * | - | 120 ml
    two measures | 3 tablespoons / 45 g baking soda | 3 | tbsp | baking soda | * | - | 45 g
    two measures | 1 tbsp (15 ml) white wine | 1 | tbsp | white wine | * | - | 15 ml
    two measures | 100 g / 3.5 oz breadcrumbs | 100 | g | breadcrumbs | * | - | 3.5 oz
    two measures | 100 g (3.5 oz) sesame oil | 100 | g | sesame oil | * | - | 3.5 oz
    two measures | 100 g (3.5 oz) parmesan | 100 | g | parmesan | * | - | 3.5 oz
    two measures | 1 lb (450 g) vegetable oil | 1 | lb | vegetable oil | * | - | 450 g
    two measures | 200g (7oz) raisins | 200 | g | raisins | * | - | 7 oz
    two measures | 1 cup (240 ml) whole milk | 1 | cup | whole milk | * | - | 240 ml
    two measures | 1lb/450g Dijon mustard | 1 | lb | dijon mustard | * | - | 450 g
    two measures | 8oz/225g baking powder | 8 | oz | baking powder | * | - | 225 g
    two measures | ½ cup / 120 ml ground cumin | 0.5 | cup | ground cumin | * | - | 120 ml
    two measures | 8 oz / 225 g maple syrup | 8 | oz | maple syrup | * | - | 225 g
    two measures | 100 g / 3.5 oz cocoa powder | 100 | g | cocoa powder | * | - | 3.5 oz
    two measures | 100 g (3.5 oz) whole milk | 100 | g | whole milk | * | - | 3.5 oz
    two measures | 1 tbsp / 15 ml Greek yogurt | 1 | tbsp | greek yogurt | * | - | 15 ml
    two measures | 100 g / 3.5 oz red lentils | 100 | g | red lentils | * | - | 3.5 oz
    two measures | 1lb/450g water | 1 | lb | water | * | - | 450 g
    two measures | 2 cups (480 ml) unsalted butter | 2 | cup | unsalted butter | * | - | 480 ml
    two measures | 1tbsp/15ml basmati rice | 1 | tbsp | basmati rice | * | - | 15 ml
    two measures | 1cup/240ml rolled oats | 1 | cup | rolled oats | * | - | 240 ml
    two measures | 8 oz (225 g) baking powder | 8 | oz | baking powder | * | - | 225 g
    two measures | 1cup/240ml Greek yogurt | 1 | cup | greek yogurt | * | - | 240 ml
    two measures | 1 tbsp (15 ml) smoked paprika | 1 | tbsp | smoked paprika | * | - | 15 ml
    two measures | 2 cups / 480 ml white wine | 2 | cup | white wine | * | - | 480 ml
    two measures | 1 lb / 450 g soy sauce | 1 | lb | soy sauce | * | - | 450 g
    two measures | 1 tbsp (15 ml) honey | 1 | tbsp | honey | * | - | 15 ml
    added | 1 cup plus 2 tablespoons flour | 1.125 | cup | flour | * | - | -
    added | 1 cup + 2 tbsp water | 1.125 | cup | water | * | - | -
    added | 2 tablespoons plus 1 teaspoon honey | 2.333333 | tbsp | honey | * | - | -
    added | 1 cup and 2 tablespoons cornstarch | 1.125 | cup | cornstarch | * | - | -
    added | ¼ + ⅛ tsp dried oregano | 0.375 | tsp | dried oregano | * | - | -
    added | 1/4 + 1/8 teaspoon tomato paste | 0.375 | tsp | tomato paste | * | - | -
    added | 2 and ½ cups frozen peas | 2.5 | cup | frozen peas | * | - | -
    added | 2 and 1/2 cups mascarpone | 2.5 | cup | mascarpone | * | - | -
    added | 1 and 1/4 cups heavy cream | 1.25 | cup | heavy cream | * | - | -
    added | 1 lb plus 4 oz unsalted butter | 1.25 | lb | unsalted butter | * | - | -
    added | 1 kg plus 250 g rolled oats | 1.25 | kg | rolled oats | * | - | -
    added | 1 l plus 250 ml smoked paprika | 1.25 | l | smoked paprika | * | - | -
    added | ½ cup plus 1 tablespoon Greek yogurt | 0.5625 | cup | greek yogurt | * | - | -
    added | 3 tbsp plus 1 tsp red lentils | 3.333333 | tbsp | red lentils | * | - | -
    added | 1 cup plus 2 tablespoons ricotta | 1.125 | cup | ricotta | * | - | -
    added | 1 cup + 2 tbsp whole milk | 1.125 | cup | whole milk | * | - | -
    added | 2 tablespoons plus 1 teaspoon butter | 2.333333 | tbsp | butter | * | - | -
    added | 1 cup and 2 tablespoons white wine | 1.125 | cup | white wine | * | - | -
    added | ¼ + ⅛ tsp ground cumin | 0.375 | tsp | ground cumin | * | - | -
    added | 1/4 + 1/8 teaspoon basmati rice | 0.375 | tsp | basmati rice | * | - | -
    added | 2 and ½ cups sesame oil | 2.5 | cup | sesame oil | * | - | -
    added | 2 and 1/2 cups breadcrumbs | 2.5 | cup | breadcrumbs | * | - | -
    added | 1 and 1/4 cups milk | 1.25 | cup | milk | * | - | -
    added | 1 lb plus 4 oz vegetable oil | 1.25 | lb | vegetable oil | * | - | -
    added | 1 kg plus 250 g lemon juice | 1.25 | kg | lemon juice | * | - | -
    added | 1 l plus 250 ml ground cinnamon | 1.25 | l | ground cinnamon | * | - | -
    added | ½ cup plus 1 tablespoon cheddar | 0.5625 | cup | cheddar | * | - | -
    added | 3 tbsp plus 1 tsp fish sauce | 3.333333 | tbsp | fish sauce | * | - | -
    qualifier | heaped 2 tablespoons rolled oats | 2 | tbsp | rolled oats | heaped | - | -
    qualifier | approximately 1 cup whole milk | 1 | cup | whole milk | approximately | - | -
    qualifier | approximately 3 tablespoons frozen peas | 3 | tbsp | frozen peas | approximately | - | -
    qualifier | level 3 ounces lemon juice | 3 | oz | lemon juice | level | - | -
    qualifier | around 3 tablespoons sesame oil | 3 | tbsp | sesame oil | around | - | -
    qualifier | around 1 cup mascarpone | 1 | cup | mascarpone | around | - | -
    qualifier | ~2 ounces parmesan | 2 | oz | parmesan | about | - | -
    qualifier | roughly 1 ounce raisins | 1 | oz | raisins | roughly | - | -
    qualifier | about 2 ounces mascarpone | 2 | oz | mascarpone | about | - | -
    qualifier | about 1 cup rolled oats | 1 | cup | rolled oats | about | - | -
    qualifier | 1 level pound unsalted butter | 1 | lb | unsalted butter | level | - | -
    qualifier | about 3 ounces smoked paprika | 3 | oz | smoked paprika | about | - | -
    qualifier | around 1 teaspoon butter | 1 | tsp | butter | around | - | -
    qualifier | ~1 tablespoon smoked paprika | 1 | tbsp | smoked paprika | about | - | -
    qualifier | 2 level pounds fish sauce | 2 | lb | fish sauce | level | - | -
    qualifier | 3 heaped tablespoons rolled oats | 3 | tbsp | rolled oats | heaped | - | -
    qualifier | roughly 3 cups butter | 3 | cup | butter | roughly | - | -
    qualifier | about 3 tablespoons baking powder | 3 | tbsp | baking powder | about | - | -
    qualifier | approximately 1 pound lemon juice | 1 | lb | lemon juice | approximately | - | -
    qualifier | 3 heaped cups vanilla extract | 3 | cup | vanilla extract | heaped | - | -
    qualifier | heaped 1 teaspoon mascarpone | 1 | tsp | mascarpone | heaped | - | -
    qualifier | 1 generous ounce parmesan | 1 | oz | parmesan | generous | - | -
    qualifier | about 1 ounce spinach | 1 | oz | spinach | about | - | -
    qualifier | about 1 tablespoon ground cumin | 1 | tbsp | ground cumin | about | - | -
    qualifier | generous 1 teaspoon red lentils | 1 | tsp | red lentils | generous | - | -
    qualifier | 3 level teaspoons peanut butter | 3 | tsp | peanut butter | level | - | -
    qualifier | ~2 tablespoons chocolate chips | 2 | tbsp | chocolate chips | about | - | -
    qualifier | 2 rounded cups smoked paprika | 2 | cup | smoked paprika | rounded | - | -
    qualifier | 3 level cups heavy cream | 3 | cup | heavy cream | level | - | -
    qualifier | roughly 2 tablespoons milk | 2 | tbsp | milk | roughly | - | -
    qualifier | a generous pinch of salt | 1 | pinch | salt | generous | - | -
    qualifier | a scant cup of sugar | 1 | cup | sugar | scant | - | -
    qualifier | a heaping tablespoon of flour | 1 | tbsp | flour | heaping | - | -
    qualifier | a good glug of olive oil | - | - | a good glug of olive oil | * | - | -
    trailing | lemon juice, 100 pints, divided | 100 | pint | lemon juice | * | - | -
    trailing | water, 2 tbsp | 2 | tbsp | water | * | - | -
    trailing | Whole milk: 250 tbsp | 250 | tbsp | whole milk | * | - | -
    trailing | ground cumin 1 litre | 1 | l | ground cumin | * | - | -
    trailing | Ground cinnamon: 100 pounds | 100 | lb | ground cinnamon | * | - | -
    trailing | Fish sauce: 3 fl oz | 3 | fl oz | fish sauce | * | - | -
    trailing | Cocoa powder: 200 Tbsp | 200 | tbsp | cocoa powder | * | - | -
    trailing | White wine: 100 ml | 100 | ml | white wine | * | - | -
    trailing | Rolled oats: 1 Tbsp | 1 | tbsp | rolled oats | * | - | -
    trailing | basmati rice, 250 quarts | 250 | quart | basmati rice | * | - | -
    trailing | chicken stock 100 litres | 100 | l | chicken stock | * | - | -
    trailing | flour, 100 ml | 100 | ml | flour | * | - | -
    trailing | frozen peas: 120 tsp | 120 | tsp | frozen peas | * | - | -
    trailing | Honey: 120 grams | 120 | g | honey | * | - | -
    trailing | frozen peas 120 g | 120 | g | frozen peas | * | - | -
    trailing | Honey: 100 pints | 100 | pint | honey | * | - | -
    trailing | Rolled oats: 2 kg | 2 | kg | rolled oats | * | - | -
    trailing | all-purpose flour, 1 fl oz, divided | 1 | fl oz | all-purpose flour | * | - | -
    trailing | parmesan, 3 pounds, divided | 3 | lb | parmesan | * | - | -
    trailing | Frozen peas: 100 oz | 100 | oz | frozen peas | * | - | -
    trailing | rolled oats, 100 tbsp | 100 | tbsp | rolled oats | * | - | -
    trailing | unsalted butter: 120 grams | 120 | g | unsalted butter | * | - | -
    trailing | butter 120 pounds | 120 | lb | butter | * | - | -
    trailing | smoked paprika 1 lb | 1 | lb | smoked paprika | * | - | -
    trailing | honey, 1 kg, divided | 1 | kg | honey | * | - | -
    trailing | For the sauce: 2 tbsp soy sauce | 2 | tbsp | soy sauce | * | - | -
    trailing | Dressing: 3 tbsp olive oil | 3 | tbsp | olive oil | * | - | -
    trailing | sugar (100 g) | 100 | g | sugar | * | - | -
    trailing | Flour (2 cups) | 2 | cup | flour | * | - | -
    trailing | garlic, 2 cloves | 2 | clove | garlic | * | - | -
    trailing | salt, 1 tsp | 1 | tsp | salt | * | - | -
    trailing | Butter: 120 g | 120 | g | butter | * | - | -
    trailing | sugar to taste (about 1 tbsp) | 1 | tbsp | sugar | * | - | -
    part of | juice of 1 lemon | 1 | - | lemon | juice | - | -
    part of | Juice of 2 limes | 2 | - | limes | juice | - | -
    part of | zest of 2 limes | 2 | - | limes | zest | - | -
    part of | zest and juice of 1 orange | 1 | - | orange | zest and juice | - | -
    part of | finely grated zest of 1 lemon | 1 | - | lemon | finely grated zest | - | -
    part of | juice of half a lemon | 0.5 | - | lemon | juice | - | -
    part of | juice of ½ lime | 0.5 | - | lime | juice | - | -
    part of | grated zest of 2 oranges | 2 | - | oranges | grated zest | - | -
    part of | the juice of 1 lemon | 1 | - | lemon | the juice | - | -
    part of | juice of one lime | 1 | - | lime | juice | - | -
    part of | juice of 1/2 lemon | 0.5 | - | lemon | juice | - | -
    part of | zest of 1 large lemon | 1 | - | lemon | zest; large | - | -
    part of | rind of 1 lemon | 1 | - | lemon | rind | - | -
    alternative | 2 tbsp butter or 1 tbsp oil | 2 | tbsp | butter | or 1 tbsp oil | - | -
    alternative | 1 cup milk or 1 cup water | 1 | cup | milk | or 1 cup water | - | -
    alternative | 2 cups chicken stock or 2 cups water | 2 | cup | chicken stock | or 2 cups water | - | -
    alternative | 1 tsp dried thyme or 1 tbsp fresh thyme | 1 | tsp | dried thyme | or 1 tbsp fresh thyme | - | -
    alternative | 3 eggs or 6 egg whites | 3 | - | eggs | or 6 egg whites | - | -
    alternative | 200 g spinach or 1 bag kale | 200 | g | spinach | or 1 bag kale | - | -
    alternative | 1 tbsp honey or 2 tbsp sugar | 1 | tbsp | honey | or 2 tbsp sugar | - | -
    alternative | 100 ml cream or 3 tbsp yogurt | 100 | ml | cream | or 3 tbsp yogurt | - | -
    alternative | 1 lemon or 2 limes | 1 | - | lemon | or 2 limes | - | -
    alternative | 1 shallot or ½ small onion | 1 | - | shallot | or 1/2 small onion | - | -
    alternative | 4 anchovies or 1 tsp anchovy paste | 4 | - | anchovies | or 1 tsp anchovy paste | - | -
    alternative | 1 cup buttermilk or 1 cup milk plus 1 tbsp lemon juice | 1 | cup | buttermilk | or 1 cup milk plus 1 tbsp lemon juice | - | -
    real | 2 cups all-purpose flour, sifted | 2 | cup | all-purpose flour | sifted | - | -
    real | 1 tsp baking soda | 1 | tsp | baking soda | * | - | -
    real | ½ tsp fine sea salt | 0.5 | tsp | fine sea salt | * | - | -
    real | 1 cup (2 sticks) unsalted butter, softened | 1 | cup | unsalted butter | 2 sticks; softened | - | 2 stick
    real | 1 ½ cups granulated sugar | 1.5 | cup | granulated sugar | * | - | -
    real | 2 large eggs, at room temperature | 2 | - | eggs | large; at room temperature | - | -
    real | 2 tsp pure vanilla extract | 2 | tsp | pure vanilla extract | * | - | -
    real | 3 cups semisweet chocolate chips | 3 | cup | semisweet chocolate chips | * | - | -
    real | 1 (14-ounce) can sweetened condensed milk | 1 | can | sweetened condensed milk | 14-ounce | 14 oz | -
    real | 1 lb ground beef | 1 | lb | ground beef | * | - | -
    real | 1 medium yellow onion, diced | 1 | - | yellow onion | medium; diced | - | -
    real | 3 cloves garlic, minced | 3 | clove | garlic | minced | - | -
    real | 1 (28-ounce) can crushed tomatoes | 1 | can | tomatoes | 28-ounce; crushed | 28 oz | -
    real | 2 tbsp tomato paste | 2 | tbsp | tomato paste | * | - | -
    real | 1 tsp dried basil | 1 | tsp | dried basil | * | - | -
    real | salt and freshly ground black pepper, to taste | - | - | salt and freshly ground black pepper | to taste | - | -
    real | 12 oz spaghetti | 12 | oz | spaghetti | * | - | -
    real | ¼ cup chopped fresh parsley | 0.25 | cup | fresh parsley | chopped | - | -
    real | Freshly grated Parmesan, for serving | - | - | parmesan | freshly grated; for serving | - | -
    real | 4 boneless, skinless chicken breasts (about 2 lbs) | 4 | - | chicken breasts | boneless skinless; about 2 lbs | - | -
    real | 2 tablespoons extra-virgin olive oil | 2 | tbsp | extra-virgin olive oil | * | - | -
    real | 1 red bell pepper, seeded and sliced | 1 | - | red bell pepper | seeded and sliced | - | -
    real | 1 (15 oz) can black beans, drained and rinsed | 1 | can | black beans | 15 oz; drained and rinsed | 15 oz | -
    real | 1 cup frozen corn kernels | 1 | cup | frozen corn kernels | * | - | -
    real | 2 tsp chili powder | 2 | tsp | chili powder | * | - | -
    real | 8 small flour tortillas | 8 | - | flour tortillas | small | - | -
    real | 1 cup shredded cheddar cheese | 1 | cup | cheddar cheese | shredded | - | -
    real | Sour cream and salsa, for serving | - | - | sour cream and salsa | for serving | - | -
    real | 500g strong white bread flour | 500 | g | strong white bread flour | * | - | -
    real | 7g sachet fast-action dried yeast | - | envelope | fast-action dried yeast | 7g | 7 g | -
    real | 300ml warm water | 300 | ml | warm water | * | - | -
    real | 2 tbsp olive oil, plus extra for greasing | 2 | tbsp | olive oil | plus extra for greasing | - | -
    real | 1 tsp caster sugar | 1 | tsp | caster sugar | * | - | -
    real | 225g self-raising flour | 225 | g | self-raising flour | * | - | -
    real | 100g cold butter, cubed | 100 | g | cold butter | cubed | - | -
    real | 150ml buttermilk | 150 | ml | buttermilk | * | - | -
    real | 1 medium egg, beaten, to glaze | 1 | - | egg | medium; beaten; to glaze | - | -
    real | 2 lemons, zested and juiced | 2 | - | lemons | zested and juiced | - | -
    real | 1 bunch fresh mint, leaves picked | 1 | bunch | fresh mint | leaves picked | - | -
    real | 200g feta, crumbled | 200 | g | feta | crumbled | - | -
    real | 1 cucumber, halved lengthways and sliced | 1 | - | cucumber | halved lengthways and sliced | - | -
    real | 3 tbsp extra virgin olive oil | 3 | tbsp | extra virgin olive oil | * | - | -
    real | 1 tbsp red wine vinegar | 1 | tbsp | red wine vinegar | * | - | -
    real | 1 tsp dried oregano | 1 | tsp | dried oregano | * | - | -
    real | 6 chicken thighs, skin on | 6 | - | chicken thighs | skin on | - | -
    real | 1 kg floury potatoes, peeled and cut into chunks | 1 | kg | floury potatoes | peeled and cut into chunks | - | -
    real | 1 whole chicken (about 1.5 kg) | 1 | - | whole chicken | about 1.5 kg | - | -
    real | 1 lemon, halved | 1 | - | lemon | halved | - | -
    real | 1 onion, cut into wedges | 1 | - | onion | cut into wedges | - | -
    real | 150 ml double cream | 150 | ml | double cream | * | - | -
    real | 2 ripe avocados | 2 | - | avocados | ripe | - | -
    real | 1 small red onion, finely chopped | 1 | - | red onion | small; finely chopped | - | -
    real | 1 jalapeño, seeded and minced | 1 | - | jalapeno | seeded and minced | - | -
    real | ¼ cup fresh cilantro, chopped | 0.25 | cup | fresh cilantro | chopped | - | -
    real | Juice of 1 lime | 1 | - | lime | juice | - | -
    real | ½ tsp ground cumin | 0.5 | tsp | ground cumin | * | - | -
    real | 1 cup long-grain white rice | 1 | cup | long-grain white rice | * | - | -
    real | 2 cups low-sodium chicken broth | 2 | cup | low-sodium chicken broth | * | - | -
    real | 1 tbsp butter | 1 | tbsp | butter | * | - | -
    real | 1 lb large shrimp, peeled and deveined | 1 | lb | shrimp | large; peeled and deveined | - | -
    real | 4 cloves garlic, thinly sliced | 4 | clove | garlic | thinly sliced | - | -
    real | ½ tsp red pepper flakes | 0.5 | tsp | red pepper flakes | * | - | -
    real | ¼ cup dry white wine | 0.25 | cup | dry white wine | * | - | -
    real | 2 tbsp chopped parsley | 2 | tbsp | parsley | chopped | - | -
    real | 1 ¼ cups whole milk, warmed | 1.25 | cup | whole milk | warmed | - | -
    real | 2 ¼ tsp active dry yeast (1 packet) | 2.25 | tsp | active dry yeast | 1 packet | - | 1 package
    real | 4 cups bread flour, plus more for dusting | 4 | cup | bread flour | plus more for dusting | - | -
    real | 1 large egg yolk | 1 | - | egg yolk | large | - | -
    real | Flaky sea salt, for sprinkling | - | - | flaky sea salt | for sprinkling | - | -
    real | 6 oz bittersweet chocolate, chopped | 6 | oz | bittersweet chocolate | chopped | - | -
    real | 3/4 cup (1 1/2 sticks) butter | 0.75 | cup | butter | 1 1/2 sticks | - | 1.5 stick
    real | 1/3 cup packed light brown sugar | 1/3 | cup | light brown sugar | packed | - | -
    real | 1 1/2 teaspoons kosher salt | 1.5 | tsp | kosher salt | * | - | -
    real | 1 pound dried black beans, picked over and rinsed | 1 | lb | dried black beans | picked over and rinsed | - | -
    real | 8 cups water | 8 | cup | water | * | - | -
    real | 1 smoked ham hock | 1 | - | smoked ham hock | * | - | -
    real | 2 bay leaves | 2 | - | bay leaves | * | - | -
    real | 1 tablespoon apple cider vinegar | 1 | tbsp | apple cider vinegar | * | - | -
    real | Hot sauce, to serve | - | - | hot sauce | to serve | - | -
    real | 400g can chickpeas, drained | - | can | chickpeas | 400g; drained | 400 g | -
    real | 2 x 400g tins chopped tomatoes | 2 | can | tomatoes | 400g; chopped | 400 g | -
    real | 1 tsp garam masala | 1 | tsp | garam masala | * | - | -
    limit:real | thumb-sized piece ginger, grated | - | piece | ginger | thumb-sized; grated | - | -
    real | small bunch coriander, chopped | - | bunch | coriander | small; chopped | - | -
    real | naan bread, to serve | - | - | naan bread | to serve | - | -
    real | 1 tbsp vegetable oil | 1 | tbsp | vegetable oil | * | - | -
    limit:real | 3 tbsp medium curry paste | 3 | tbsp | medium curry paste | * | - | -
    real | 250g basmati rice | 250 | g | basmati rice | * | - | -
    real | 1/2 teaspoon ground turmeric | 0.5 | tsp | ground turmeric | * | - | -
    real | 2 (6-ounce) salmon fillets | 2 | - | salmon fillets | 6-ounce | 6 oz | -
    real | 1 tablespoon soy sauce | 1 | tbsp | soy sauce | * | - | -
    real | 1 teaspoon toasted sesame oil | 1 | tsp | toasted sesame oil | * | - | -
    real | 2 scallions, thinly sliced | 2 | - | scallions | thinly sliced | - | -
    real | 1 tbsp sesame seeds, toasted | 1 | tbsp | sesame seeds | toasted | - | -
    real | 3 cups cooked rice, for serving | 3 | cup | rice | cooked; for serving | - | -
    real | 2 cups fresh blueberries | 2 | cup | fresh blueberries | * | - | -
    real | 1 cup plain Greek yogurt | 1 | cup | plain greek yogurt | * | - | -
    real | 2 tbsp honey, or to taste | 2 | tbsp | honey | or to taste | - | -
    real | 1/2 cup granola | 0.5 | cup | granola | * | - | -
    real | 10 oz baby spinach | 10 | oz | baby spinach | * | - | -
    real | ¾ cup (180 ml) heavy cream | 0.75 | cup | heavy cream | 180 ml | - | 180 ml
    real | 2 oz Gruyère, grated (½ cup) | 2 | oz | gruyere | grated; 1/2 cup | - | 0.5 cup
    real | Pinch of nutmeg | - | pinch | nutmeg | * | - | -
    real | 4 slices thick-cut bacon | 4 | slice | thick-cut bacon | * | - | -
    real | 1 quart vegetable stock | 1 | quart | vegetable stock | * | - | -
    real | 2 pounds Yukon Gold potatoes | 2 | lb | yukon gold potatoes | * | - | -
    real | 1/2 cup sour cream | 0.5 | cup | sour cream | * | - | -
    real | 3 green onions, sliced | 3 | - | green onions | sliced | - | -
    real | 1 pint cherry tomatoes, halved | 1 | pint | cherry tomatoes | halved | - | -
    real | 1 (8-oz) ball fresh mozzarella, torn | 1 | ball | fresh mozzarella | 8-oz; torn | 8 oz | -
    real | Handful of basil leaves | - | handful | basil leaves | * | - | -
    real | 1 baguette, sliced | 1 | - | baguette | sliced | - | -
    real | ½ cup (1 stick) cold unsalted butter, cut into cubes | 0.5 | cup | cold unsalted butter | 1 stick; cut into cubes | - | 1 stick
    real | ice water | - | - | ice water | * | - | -
    real | 6 cups thinly sliced apples (about 6 medium) | 6 | cup | apples | thinly sliced; about 6 medium | - | -
    real | 2 tbsp cornstarch | 2 | tbsp | cornstarch | * | - | -
    real | 1 egg, beaten with 1 tbsp water | 1 | - | egg | beaten with 1 tbsp water | - | -
    real | Turbinado sugar, for sprinkling | - | - | turbinado sugar | for sprinkling | - | -
    real | 1 1/4 cups all-purpose flour | 1.25 | cup | all-purpose flour | * | - | -
    real | 1/2 teaspoon baking powder | 0.5 | tsp | baking powder | * | - | -
    real | 2 cups (250g) powdered sugar | 2 | cup | powdered sugar | 250g | - | 250 g
    real | 4 oz (113g) cream cheese, softened | 4 | oz | cream cheese | 113g; softened | - | 113 g
    real | 1 tablespoon fresh lemon juice | 1 | tbsp | fresh lemon juice | * | - | -
    real | 3 garlic cloves, crushed | 3 | - | garlic cloves | crushed | - | -
    real | 1 x 400g tin coconut milk | 1 | can | coconut milk | 400g | 400 g | -
    real | 2 x 15ml spoons vegetable oil | 2 | - | spoons vegetable oil | 15ml | 15 ml | -
    real | a small knob of ginger, grated | 1 | knob | ginger | small; grated | - | -
    real | 1 red chilli, finely chopped | 1 | - | red chilli | finely chopped | - | -
    real | small handful of coriander leaves | - | handful | coriander leaves | small | - | -
    real | 1 tsp ground coriander | 1 | tsp | ground coriander | * | - | -
    real | 100g frozen peas | 100 | g | frozen peas | * | - | -
    real | 2 tbsp mango chutney | 2 | tbsp | mango chutney | * | - | -
    real | 1 kg (2.2 lb) beef chuck, cut into 2-inch cubes | 1 | kg | beef chuck | 2.2 lb; cut into 2-inch cubes | - | 2.2 lb
    real | 3 tablespoons all-purpose flour | 3 | tbsp | all-purpose flour | * | - | -
    real | 2 cups dry red wine | 2 | cup | dry red wine | * | - | -
    real | 1 (750-ml) bottle dry red wine | 1 | bottle | dry red wine | 750-ml | 750 ml | -
    real | 2 carrots, peeled and cut into 1-inch pieces | 2 | - | carrots | peeled and cut into 1-inch pieces | - | -
    real | 8 oz cremini mushrooms, quartered | 8 | oz | cremini mushrooms | quartered | - | -
    real | 1 tablespoon fresh thyme leaves | 1 | tbsp | fresh thyme leaves | * | - | -
    real | 12 ounces egg noodles | 12 | oz | egg noodles | * | - | -
    real | 2 tablespoons butter, divided | 2 | tbsp | butter | divided | - | -
    real | 1/4 cup heavy cream | 0.25 | cup | heavy cream | * | - | -
    real | 1 cup grated Parmesan cheese | 1 | cup | parmesan cheese | grated | - | -
    real | 1 tbsp. Dijon mustard | 1 | tbsp | dijon mustard | * | - | -
    real | 1 teaspoon Worcestershire sauce | 1 | tsp | worcestershire sauce | * | - | -
    real | 6 large egg whites | 6 | - | egg whites | large | - | -
    real | 1 cup superfine sugar | 1 | cup | superfine sugar | * | - | -
    real | 1 tsp cream of tartar | 1 | tsp | cream of tartar | * | - | -
    real | 2 cups whipped cream | 2 | cup | whipped cream | * | - | -
    real | 1 lb strawberries, hulled and sliced | 1 | lb | strawberries | hulled and sliced | - | -
    real | 3 ripe bananas, mashed (about 1 1/2 cups) | 3 | - | bananas | ripe; mashed; about 1 1/2 cups | - | -
    real | 1/3 cup vegetable oil | 1/3 | cup | vegetable oil | * | - | -
    real | 1 tsp ground cinnamon | 1 | tsp | ground cinnamon | * | - | -
    real | 1/2 cup chopped walnuts (optional) | 0.5 | cup | walnuts | chopped; optional | - | -
    real | 2 cups cubed butternut squash | 2 | cup | butternut squash | cubed | - | -
    real | 1 medium onion, chopped | 1 | - | onion | medium; chopped | - | -
    real | 4 cups vegetable stock | 4 | cup | vegetable stock | * | - | -
    real | 1 can (13.5 oz) coconut milk | 1 | can | coconut milk | 13.5 oz | 13.5 oz | -
    real | 1 tbsp red curry paste | 1 | tbsp | red curry paste | * | - | -
    real | Fresh cilantro, for garnish | - | - | fresh cilantro | for garnish | - | -
    real | 1 lb. penne pasta | 1 | lb | penne pasta | * | - | -
    real | 28 oz can San Marzano tomatoes | - | can | san marzano tomatoes | 28 oz | 28 oz | -
    real | 1/4 tsp crushed red pepper | 0.25 | tsp | crushed red pepper | * | - | -
    real | 1/2 cup vodka | 0.5 | cup | vodka | * | - | -
    real | 3 Tbsp. unsalted butter | 3 | tbsp | unsalted butter | * | - | -
    real | 1 shallot, minced | 1 | - | shallot | minced | - | -
    real | 2 lbs baby back ribs | 2 | lb | baby back ribs | * | - | -
    real | 1/2 cup barbecue sauce | 0.5 | cup | barbecue sauce | * | - | -
    real | 2 tablespoons dark brown sugar | 2 | tbsp | dark brown sugar | * | - | -
    real | 1 tablespoon smoked paprika | 1 | tbsp | smoked paprika | * | - | -
    real | 2 teaspoons garlic powder | 2 | tsp | garlic powder | * | - | -
    real | 1 teaspoon onion powder | 1 | tsp | onion powder | * | - | -
    real | 1 cup panko breadcrumbs | 1 | cup | panko breadcrumbs | * | - | -
    real | 2 eggs, lightly beaten | 2 | - | eggs | lightly beaten | - | -
    real | 1/2 cup milk | 0.5 | cup | milk | * | - | -
    real | 1 lb ground pork | 1 | lb | ground pork | * | - | -
    real | 1 Tbsp grated fresh ginger | 1 | tbsp | fresh ginger | grated | - | -
    real | 24 wonton wrappers | 24 | - | wonton wrappers | * | - | -
    real | 3 cups cooked quinoa | 3 | cup | quinoa | cooked | - | -
    real | 1 English cucumber, diced | 1 | - | english cucumber | diced | - | -
    real | 1/2 cup kalamata olives, pitted and halved | 0.5 | cup | kalamata olives | pitted and halved | - | -
    real | 1/4 cup red onion, thinly sliced | 0.25 | cup | red onion | thinly sliced | - | -
    real | 200 g halloumi, sliced | 200 | g | halloumi | sliced | - | -
    real | 1 tsp sumac | 1 | tsp | sumac | * | - | -
    real | 2 pitta breads | 2 | - | pitta breads | * | - | -
    real | 1 x 7g sachet dried yeast | 1 | envelope | dried yeast | 7g | 7 g | -
    real | 500 ml whole milk | 500 | ml | whole milk | * | - | -
    real | 75 g caster sugar | 75 | g | caster sugar | * | - | -
    real | 4 egg yolks | 4 | - | egg yolks | * | - | -
    real | 1 vanilla pod, split | 1 | - | vanilla pod | split | - | -
    real | 1.5 litres chicken stock | 1.5 | l | chicken stock | * | - | -
    real | 300 g arborio rice | 300 | g | arborio rice | * | - | -
    real | a glass of white wine | - | - | a glass of white wine | * | - | -
    real | 50 g parmesan, finely grated, plus extra to serve | 50 | g | parmesan | finely grated; plus extra to serve | - | -
    real | 2 x 200g salmon fillets | 2 | - | salmon fillets | 200g | 200 g | -
    real | 1 tbsp miso paste | 1 | tbsp | miso paste | * | - | -
    real | 1 tsp runny honey | 1 | tsp | runny honey | * | - | -
    real | 2 pak choi, halved | 2 | - | pak choi | halved | - | -
    real | ½ lemon, cut into wedges | 0.5 | - | lemon | cut into wedges | - | -
    real | 12 large prawns | 12 | - | prawns | large | - | -
    real | 1 tbsp chopped dill | 1 | tbsp | dill | chopped | - | -
    real | 3 cups (720 ml) water | 3 | cup | water | 720 ml | - | 720 ml
    real | 1 ½ teaspoons ground ginger | 1.5 | tsp | ground ginger | * | - | -
    real | ¼ teaspoon ground cloves | 0.25 | tsp | ground cloves | * | - | -
    real | ⅔ cup molasses | 2/3 | cup | molasses | * | - | -
    real | 3 ¼ cups all-purpose flour | 3.25 | cup | all-purpose flour | * | - | -
    real | 1/8 tsp cloves | 1/8 | tsp | cloves | * | - | -
    real | ¼ tsp clove | 0.25 | tsp | clove | * | - | -
    real | ½ tsp whole cloves | 0.5 | tsp | whole cloves | * | - | -
    real | 1, 14 oz can of sweetened condensed milk | 1 | can | sweetened condensed milk | * | 14 oz | -
    real | 1/8, white onion, finely diced | 1/8 | - | white onion | * | - | -
    no amount | salt | - | - | salt | * | - | -
    no amount | Salt and pepper | - | - | salt and pepper | * | - | -
    no amount | olive oil, for drizzling | - | - | olive oil | for drizzling | - | -
    no amount | fresh basil leaves, torn | - | - | fresh basil leaves | torn | - | -
    no amount | cooking spray | - | - | cooking spray | * | - | -
    no amount | lemon wedges, to serve | - | - | lemon wedges | to serve | - | -
    no amount | vegetable oil, for frying | - | - | vegetable oil | for frying | - | -
    no amount | chopped chives | - | - | chives | chopped | - | -
    no amount | 2% milk | - | - | 2% milk | * | - | -
    no amount | 7up | - | - | 7up | * | - | -
    no amount | 00 flour | - | - | 00 flour | * | - | -
    no amount | Chinese five-spice powder | - | - | chinese five-spice powder | * | - | -
    no amount | half-and-half | - | - | half-and-half | * | - | -
    no amount | half and half | - | - | half and half | * | - | -
    no amount | T-bone steaks | - | - | t-bone steaks | * | - | -
    no amount | head of lettuce | - | head | lettuce | * | - | -
    no amount | cup of sugar | - | cup | sugar | * | - | -
    no amount | sprigs of thyme | - | sprig | thyme | * | - | -
    unsure | 1/0 cup sugar | - | - | sugar | 1/0 cup | - | -
    unsure | 2 eggs + 1 yolk | 2 | - | eggs | + 1 yolk | - | -
    unsure | 1 3/2 cups flour | - | - | flour | * | - | -
    limit:unsure | 1 can tomatoes 400g | 1 | can | tomatoes | 400g | 400 g | -
    unsure | pasta 500 | - | - | pasta | 500 | - | -
    """
}
