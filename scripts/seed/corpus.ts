// Topics and the text banks the world draws titles, descriptions and comments from.
import type { ImageStyle, PinKind } from "./types.ts";
import type { Rng } from "./rng.ts";

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------------------------------
// Topics and text banks
// ---------------------------------------------------------------------------------------

export const TOPICS = ["food", "home", "travel", "style", "diy"] as const;
export type Topic = (typeof TOPICS)[number];

export const TOPIC_CATEGORY: Record<Topic, string> = {
  food: "food_drinks",
  home: "home_decor",
  travel: "travel",
  style: "womens_fashion",
  diy: "diy_crafts",
};

export const TOPIC_LABEL: Record<Topic, string> = {
  food: "Recipes",
  home: "Home decor",
  travel: "Travel",
  style: "Style",
  diy: "DIY",
};

export const TOPIC_WEIGHTS: ReadonlyArray<readonly [Topic, number]> = [
  ["food", 30],
  ["home", 22],
  ["travel", 16],
  ["style", 18],
  ["diy", 14],
];

export const TOPIC_HUES: Record<Topic, readonly [number, number]> = {
  food: [0, 50],
  home: [20, 60],
  travel: [165, 225],
  style: [290, 355],
  diy: [60, 150],
};

export const TOPIC_STYLES: Record<Topic, ReadonlyArray<readonly [ImageStyle, number]>> = {
  food: [["plate", 5], ["blobs", 3], ["stripes", 2], ["quote", 1]],
  home: [["bauhaus", 4], ["mosaic", 3], ["blobs", 2], ["stripes", 2], ["quote", 1]],
  travel: [["horizon", 6], ["blobs", 2], ["quote", 1]],
  style: [["stripes", 3], ["bauhaus", 3], ["blobs", 3], ["quote", 1]],
  diy: [["mosaic", 4], ["bauhaus", 3], ["stripes", 2], ["quote", 1]],
};

export const CUISINES = ["Italian", "Mexican", "Thai", "Greek", "Japanese", "Lebanese", "Indian", "Korean", "French", "Moroccan", "Vietnamese", "Spanish"];
export const FOOD_OPENERS = ["Our go-to", "The easiest", "A cosy take on", "Weeknight-friendly", "Make-ahead", "Crowd-pleasing", "Five-ingredient", "Family-favourite"];
export const FOOD_TIPS = [
  "Double the batch and freeze half for a busy week.",
  "Swap in whatever greens you have in the fridge.",
  "Serve with crusty bread and a squeeze of lemon.",
  "Leftovers make a great lunch the next day.",
  "Toast the spices first for a deeper flavour.",
  "Ready in about half an hour, start to finish.",
];
export const FOOD_TITLES: ReadonlyArray<(dish: string, rng: Rng) => string> = [
  (dish) => `One-pan ${dish.toLowerCase()} for busy weeknights`,
  (dish, rng) => `${rng.pick(CUISINES)}-style ${dish.toLowerCase()}`,
  (dish) => `The only ${dish.toLowerCase()} recipe you need`,
  (dish, rng) => `${rng.int(15, 45)}-minute ${dish.toLowerCase()}`,
  (dish, rng) => `${capitalize(rng.faker.food.adjective())} ${dish.toLowerCase()}`,
  (dish) => `${dish} the whole family will love`,
  (dish) => `Easy ${dish.toLowerCase()} for meal prep`,
];

export const HOME_STYLES = ["Scandinavian", "Japandi", "mid-century", "boho", "cottagecore", "industrial", "coastal", "minimalist", "farmhouse", "art deco", "Mediterranean"];
const HOME_ROOMS = ["living room", "kitchen", "bedroom", "bathroom", "balcony", "entryway", "home office", "reading nook", "dining room", "guest room"];
export const HOME_ITEMS = [
  "linen curtains", "rattan chairs", "open shelving", "a gallery wall", "terracotta pots", "a statement rug", "brass lamps",
  "floating shelves", "oak side tables", "a velvet sofa", "woven baskets", "a vintage mirror", "ceramic vases", "pendant lights",
];
export const HOME_TITLES: ReadonlyArray<(rng: Rng) => [string, string]> = [
  (rng) => { const k = `${rng.pick(HOME_STYLES)} ${rng.pick(HOME_ROOMS)}`; return [`${capitalize(k)} ideas with ${rng.pick(HOME_ITEMS)}`, k]; },
  (rng) => { const item = rng.pick(HOME_ITEMS); return [`How to style ${item} in a small ${rng.pick(HOME_ROOMS)}`, item]; },
  (rng) => { const k = `${rng.faker.color.human()} ${rng.pick(HOME_ROOMS)}`; return [`${capitalize(k)} makeover on a budget`, k]; },
  (rng) => { const room = rng.pick(HOME_ROOMS); return [`${rng.int(5, 15)} ${room} refresh ideas for this weekend`, room]; },
  (rng) => { const k = `${rng.pick(HOME_STYLES)} ${rng.pick(HOME_ROOMS)}`; return [`A calm, light-filled ${k}`, k]; },
];
export const HOME_DETAILS = [
  "Layer textures and keep the palette soft so the space feels bigger.",
  "Most of the pieces are secondhand or from the flea market.",
  "Rental-friendly: nothing here needs a drill.",
  "Warm bulbs and a few plants make all the difference.",
  "The trick is to edit: fewer, better things.",
];

export const DESTINATIONS = [
  "Lisbon", "Kyoto", "Oaxaca", "Copenhagen", "Marrakech", "Cape Town", "Hanoi", "Reykjavik", "the Amalfi Coast", "Patagonia",
  "Edinburgh", "Istanbul", "Seoul", "Quebec City", "the Dolomites", "Santorini", "Bali", "Vancouver", "Mexico City", "Porto",
  "Tasmania", "the Scottish Highlands", "Sicily", "Lake Como",
];
export const TRAVEL_SPOTS = ["a hidden beach", "the old town", "a rooftop café", "the night market", "a cliffside trail", "a tiny bookshop", "the harbour", "a hot spring"];
export const TRAVEL_TITLES: ReadonlyArray<(place: string, rng: Rng) => string> = [
  (place) => `48 hours in ${place}: a slow travel guide`,
  (place) => `Where to eat in ${place} on a budget`,
  (place, rng) => `${capitalize(rng.pick(["spring", "summer", "autumn", "winter"]))} packing list for ${place}`,
  (place) => `Hidden gems in ${place} the guidebooks skip`,
  (place, rng) => `A ${rng.int(3, 10)}-day road trip through ${place}`,
  (place) => `The most beautiful walks around ${place}`,
];
export const TRAVEL_DETAILS = [
  "Go early in the morning to have the place almost to yourself.",
  "Public transport is easy, so skip the rental car.",
  "Book the small guesthouses a few weeks ahead.",
  "Bring comfortable shoes: everything is up and down hills.",
  "The best food was at the places without a menu in English.",
];

export const GARMENTS = [
  "linen shirt", "wide-leg trousers", "trench coat", "slip dress", "chunky knit", "denim jacket", "loafers", "ballet flats",
  "silk scarf", "white sneakers", "wrap skirt", "cardigan", "wool overcoat", "midi skirt", "leather belt", "straw tote",
];
export const SEASONS = ["spring", "summer", "autumn", "winter"];
export const STYLE_TITLES: ReadonlyArray<(garment: string, rng: Rng) => string> = [
  (garment, rng) => `${rng.int(5, 12)} ways to wear a ${garment}`,
  (garment, rng) => `${capitalize(rng.faker.color.human())} ${garment} outfit ideas`,
  (garment) => `How to style a ${garment} for work`,
  (_garment, rng) => `${capitalize(rng.pick(SEASONS))} capsule wardrobe: ${rng.int(10, 30)} pieces`,
  (garment) => `The ${garment} that goes with everything`,
  (garment) => `Weekend outfits built around a ${garment}`,
];
export const STYLE_DETAILS = [
  "Neutral basics with one statement piece keep it easy.",
  "Roll the sleeves and tuck it in for a sharper look.",
  "Everything here mixes and matches, so packing is simple.",
  "Good fabrics last longer than trends.",
  "Add a belt to give the outfit some shape.",
];

export const DIY_PROJECTS = [
  "macrame plant hanger", "hand-painted mugs", "pressed flower frames", "pallet wood bench", "beeswax candles", "cork board wall",
  "paper lanterns", "embroidered tote bag", "terrarium", "tile-top coffee table", "clay earrings", "rope basket",
  "upcycled jar lights", "wooden key holder", "fabric wall hanging", "concrete planters",
];
export const DIY_TITLES: ReadonlyArray<(project: string, rng: Rng) => string> = [
  (project) => `DIY ${project} in an afternoon`,
  (project) => `How to make a ${project} (beginner friendly)`,
  (project, rng) => `${rng.int(5, 15)} easy ${project} ideas`,
  (project) => `Upcycled ${project} from things you already own`,
  (project) => `Step-by-step ${project} for a rainy weekend`,
];
export const DIY_DETAILS = [
  "You only need basic tools and about two hours.",
  "Sand lightly between coats for a smooth finish.",
  "A great project to do with kids.",
  "Costs less than ten dollars in supplies.",
  "Makes a lovely handmade gift.",
];

export const CTAS = ["Find the details on", "Read more on", "Get the full guide on", "Everything you need is on"];

export const BOARD_NAMES: Record<Topic, readonly string[]> = {
  food: [
    "Weeknight dinners", "Sourdough & bread", "Soups and stews", "Sweet tooth", "Meal prep Sundays", "{cuisine} kitchen",
    "Brunch ideas", "Summer salads", "Holiday baking", "Cocktail hour", "Snack attack", "Pasta night", "Vegetarian mains", "Cakes & bakes",
  ],
  home: [
    "Living room refresh", "Small space living", "Balcony garden", "Dream kitchen", "Cozy bedroom", "{homestyle} home",
    "Bathroom makeover", "Plant corner", "Entryway ideas", "Home office", "Rental-friendly updates", "Colour crush: {color}",
  ],
  travel: [
    "{place} trip", "Travel bucket list", "Weekend getaways", "Road trips", "Beach days", "Mountain escapes",
    "Packing lists", "Places to eat in {place}", "Europe by train", "Camping",
  ],
  style: [
    "Capsule wardrobe", "Workwear", "{season} outfits", "Shoes I love", "Accessories", "Date night looks",
    "Minimal style", "Vintage finds", "Wedding guest outfits", "Knitwear",
  ],
  diy: [
    "Weekend projects", "Paper crafts", "Woodworking", "Knitting & crochet", "Upcycling", "Gift wrap ideas",
    "Kids crafts", "Candle making", "Sewing projects", "Painted furniture",
  ],
};

export const SECTION_TITLES: Record<Topic, readonly string[]> = {
  food: ["Breakfast", "Lunch", "Dinner", "Desserts", "Drinks", "Snacks", "Sides", "Baking"],
  home: ["Living room", "Kitchen", "Bedroom", "Bathroom", "Outdoor", "Storage", "Lighting", "Plants"],
  travel: ["Where to stay", "Where to eat", "Things to do", "Packing", "Itineraries", "Photo spots"],
  style: ["Workwear", "Weekend", "Shoes", "Accessories", "Outerwear", "Evening"],
  diy: ["Paper", "Wood", "Textiles", "Paint", "Gifts", "Kids"],
};

export const ABOUTS: Record<Topic, readonly string[]> = {
  food: ["Home cook, bread baker, soup enthusiast.", "Cooking my way through every cuisine.", "Recipes that fit a weeknight."],
  home: ["Slowly making a small flat feel like home.", "Interior lover. Plants everywhere.", "Renovating a 1930s house one room at a time."],
  travel: ["Always planning the next trip.", "Slow travel, long walks, good coffee.", "Collecting maps and train tickets."],
  style: ["Capsule wardrobe convert.", "Vintage finds and everyday outfits.", "Dressing for comfort, mostly."],
  diy: ["Maker of small things.", "Weekend woodworker and paint spiller.", "If I can make it, I will."],
};

export const COMMENTS_GENERIC = [
  "This is gorgeous!", "Saving this for later.", "Love the colours here.", "Such a good idea.", "Where is this from?",
  "Adding this to my list.", "Absolutely love this.", "So pretty!", "This made my day.", "Great tip, thank you for sharing.",
];
export const COMMENTS_TOPIC: Record<Topic, readonly string[]> = {
  food: [
    "Made this last night and it was a hit.", "Trying this tonight!", "Can I use dried herbs instead?", "My kids loved it.",
    "I added extra garlic, so good.", "How long does it keep in the fridge?", "Made it twice this week already.",
  ],
  home: ["Where did you get the lamp?", "That rug is perfect.", "Doing this in our hallway.", "What paint colour is that?", "So cosy!"],
  travel: ["Adding this to my bucket list.", "We went last spring, it was magical.", "How many days would you recommend?", "Best trip ever."],
  style: ["Where is the coat from?", "Love this combo.", "Need this outfit.", "Does it run true to size?", "So chic."],
  diy: ["Making this for my mum's birthday.", "What glue did you use?", "Tried it and it worked great.", "Such a fun weekend project."],
};
export const REPLIES = ["Thank you!", "Same here!", "Let me know how it goes!", "It's linked in the description.", "So glad you like it.", "Good question, I'd love to know too."];

export const FRENCH_CAPTIONS: Record<Topic, readonly string[]> = {
  food: ["On commence par préparer les ingrédients.", "Quelques minutes au four et c'est prêt.", "Bon appétit !"],
  home: ["On range, on trie, on garde l'essentiel.", "Un peu de lumière change tout.", "Et voilà, une pièce toute neuve."],
  travel: ["Le matin, la ville est encore calme.", "On se perd dans les petites rues.", "Le coucher de soleil vaut le détour."],
  style: ["Une pièce simple, trois façons de la porter.", "On ajoute une ceinture.", "Prête pour la journée."],
  diy: ["Il vous faut seulement quelques outils.", "On peint, on laisse sécher.", "Le résultat est parfait pour offrir."],
};

export const EMAIL_HOSTS = ["mail.example", "inbox.example", "post.example", "letterbox.example"];
export const LOCALES: ReadonlyArray<readonly [readonly [string, string], number]> = [
  [["US", "en_US"], 60],
  [["GB", "en_GB"], 10],
  [["CA", "en_US"], 6],
  [["FR", "fr_FR"], 8],
  [["DE", "de_DE"], 6],
  [["ES", "es_ES"], 4],
  [["AU", "en_AU"], 4],
  [["BR", "pt_BR"], 2],
];

export type Brand = { domain: string; name: string; topic: Topic; shop: boolean; blocked: boolean };
export const BRANDS: readonly Brand[] = [
  { domain: "bakeandbloom.example", name: "Bake & Bloom", topic: "food", shop: false, blocked: false },
  { domain: "saltandsaffron.example", name: "Salt & Saffron", topic: "food", shop: false, blocked: false },
  { domain: "weeknightkitchen.example", name: "Weeknight Kitchen", topic: "food", shop: false, blocked: false },
  { domain: "nestandnook.example", name: "Nest & Nook", topic: "home", shop: true, blocked: false },
  { domain: "lindenhome.example", name: "Linden Home", topic: "home", shop: true, blocked: false },
  { domain: "wanderlustlane.example", name: "Wanderlust Lane", topic: "travel", shop: false, blocked: false },
  { domain: "farfieldjournal.example", name: "Farfield Journal", topic: "travel", shop: false, blocked: false },
  { domain: "marlowandmain.example", name: "Marlow & Main", topic: "style", shop: true, blocked: false },
  { domain: "threadandtwill.example", name: "Thread & Twill", topic: "style", shop: true, blocked: false },
  { domain: "makersmeadow.example", name: "Makers Meadow", topic: "diy", shop: false, blocked: false },
  { domain: "paperandpine.example", name: "Paper & Pine", topic: "diy", shop: true, blocked: false },
  { domain: "dealsgalore-now.example", name: "Deals Galore", topic: "style", shop: true, blocked: true },
];
export const PHOTO_PROVIDERS = [
  { name: "Lumen Photos", domain: "lumenphotos.example" },
  { name: "Open Shutter", domain: "openshutter.example" },
];

export const RECIPE_AMOUNTS = ["1 cup", "2 cups", "1/2 cup", "1 tbsp", "2 tbsp", "1 tsp", "1/2 tsp", "200 g", "400 g", "1 can", "2 cloves", "a pinch of", "3", "1 large", "1 bunch"];
export const DIETS = ["vegetarian", "vegan", "gluten-free", "dairy-free", "low-carb"];
export const SUPPLIES = ["scissors", "wood glue", "acrylic paint", "a hot glue gun", "cotton cord", "sandpaper", "a paintbrush", "masking tape", "jute twine", "air-dry clay"];
export const KIND_PCT: ReadonlyArray<readonly [PinKind, number]> = [
  ["image", 45],
  ["recipe", 14],
  ["article", 10],
  ["product", 10],
  ["carousel", 8],
  ["story", 8],
  ["video", 5],
];

export const PIN_ASPECTS: ReadonlyArray<readonly [readonly [number, number], number]> = [
  [[2, 3], 40],
  [[1, 1], 10],
  [[4, 5], 12],
  [[3, 4], 10],
  [[9, 16], 6],
  [[1, 2], 4],
  [[4, 3], 8],
  [[16, 9], 4],
  [[5, 7], 6],
];
export const STORY_DIMS = { width: 756, height: 1344 } as const;
export const VIDEO_PORTRAIT = { width: 360, height: 640, posterW: 756, posterH: 1344 } as const;
export const VIDEO_LANDSCAPE = { width: 640, height: 360, posterW: 1280, posterH: 720 } as const;
