// The photographs of the demo world (scripts/seed/photos/*.jpg; authors, licences and source
// packages in scripts/seed/photos/LICENSES.md) and what pins showing them say about them.
//
// Every caption is written for its picture: a pin that shows a photo takes its title, keyword,
// description and alt text from one of that photo's captions, so a photo repeated across pins
// appears under different, still fitting, titles. `dominant` is sharp's dominant colour of the
// committed file (photos.test.ts recomputes it from the pixels): the world is built without I/O,
// so it cannot read the file itself.
import type { Topic } from "./corpus.ts";

export type PhotoCaption = { title: string; keyword: string; description: string; alt: string };

type Licence = { name: string; url: string };

export type Photo = {
  /** File name in scripts/seed/photos/. */
  file: string;
  width: number;
  height: number;
  dominant: string;
  author: string;
  licence: Licence;
  /** The Debian package the original comes from. */
  sourcePackage: string;
  topic: Topic;
  captions: readonly PhotoCaption[];
};

const CC_BY_4: Licence = { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" };
const CC_BY_SA_4: Licence = { name: "CC BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0/" };
const CC_BY_SA_3: Licence = { name: "CC BY-SA 3.0", url: "https://creativecommons.org/licenses/by-sa/3.0/" };
const CC0: Licence = { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" };
const GPL_2: Licence = { name: "GPL-2.0-or-later", url: "https://www.gnu.org/licenses/old-licenses/gpl-2.0.html" };

const LOMIRI_16 = "lomiri-wallpapers-16.04";
const LOMIRI_20 = "lomiri-wallpapers-20.04";
const MATE = "mate-backgrounds";

/** Where a package's page is: the attribution's link. */
function packageUrl(sourcePackage: string): string {
  return `https://packages.debian.org/bookworm/${sourcePackage}`;
}

export const PHOTOS: readonly Photo[] = [
  {
    file: "bridge-cables-beach.jpg", width: 1600, height: 900, dominant: "#6898c8", author: "Sander Klootwijk", licence: CC_BY_SA_4, sourcePackage: LOMIRI_16, topic: "travel",
    captions: [
      { title: "Under the bridge cables at low tide", keyword: "tidal flats", description: "Steel cables cross a wide blue sky over sand flats and a thin line of sea. Walk out at low tide for this view.", alt: "Bridge cables crossing a blue sky above tidal sand flats" },
      { title: "A blue-sky walk along the estuary", keyword: "estuary walk", description: "Looking up through the stays of a bridge towards the estuary. Best on a clear, windy morning.", alt: "White bridge stays against a clear sky over a sandy estuary" },
      { title: "Bridges and big skies on the coast", keyword: "coastal bridge", description: "Lines of a bridge framing the horizon, with low clouds over the flats. A stop worth planning a coastal drive around.", alt: "Crossing cables of a bridge over a flat coastline" },
    ],
  },
  {
    file: "spring-branch-sky.jpg", width: 1600, height: 1200, dominant: "#080808", author: "\"Bolly\"", licence: CC_BY_SA_4, sourcePackage: LOMIRI_16, topic: "travel",
    captions: [
      { title: "A dragonfly resting on a hazel twig", keyword: "dragonfly", description: "A dragonfly basks on a bare twig in front of sunlit hazel leaves. Bring a macro lens on woodland walks.", alt: "A dragonfly perched on a twig in front of green leaves and blue sky" },
      { title: "Hazel leaves against a deep blue sky", keyword: "hazel leaves", description: "Late-summer hazel in full leaf, lit from the side, with a dragonfly on the tip of a twig.", alt: "Hazel branches with a dragonfly under a deep blue sky" },
      { title: "Looking up on a summer hike", keyword: "summer hike", description: "Stop under the trees and look up: a dragonfly sat still long enough for this one.", alt: "Sunlit leaves and a resting dragonfly seen from below" },
    ],
  },
  {
    file: "fig-red-bowl.jpg", width: 1600, height: 1082, dominant: "#a8a8a8", author: "Trevor \"Freespace\"", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "food",
    captions: [
      { title: "Half a fig in a red bowl", keyword: "fresh figs", description: "One ripe fig, cut open, in a glossy red bowl on grey stone. Figs need nothing more than this.", alt: "A halved fig in a red bowl on a grey stone surface" },
      { title: "Fig season: serve them simply", keyword: "fig season", description: "Cut ripe figs in half and serve them as they are, with honey or soft cheese on the side.", alt: "A cut fig showing its pink seeds in a red dish" },
      { title: "A red bowl for late-summer fruit", keyword: "fruit bowl", description: "Bright tableware makes fruit look even better: a single fig on a red bowl against concrete.", alt: "A red leaf-shaped bowl holding half a fig" },
    ],
  },
  {
    file: "paint-brushes.jpg", width: 1365, height: 1074, dominant: "#884828", author: "Trevor \"Freespace\"", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "diy",
    captions: [
      { title: "Paint brushes in every colour", keyword: "paint brushes", description: "A jar of well-used brushes still stained blue, pink and green. Clean them in warm soapy water and store them upright.", alt: "Paint brushes with colourful bristles standing in jars" },
      { title: "How to care for your brushes", keyword: "brush care", description: "Rinse, reshape and dry brushes bristles up: these will last for years of projects.", alt: "Close-up of paint-stained brushes in a studio" },
      { title: "A corner of the craft studio", keyword: "craft studio", description: "Brushes, jars and colour everywhere: a studio corner ready for the next painting project.", alt: "Brushes in bright paint colours in a workshop" },
    ],
  },
  {
    file: "djembe-pallet-table.jpg", width: 1068, height: 1600, dominant: "#a86838", author: "Jakub Mede", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "home",
    captions: [
      { title: "A pallet coffee table and a djembe", keyword: "pallet coffee table", description: "A low table built from two pallets, a bottle of red and a drum on a beanbag: an easy, warm living room.", alt: "A djembe on a beanbag in front of a pallet table with wine" },
      { title: "Music corner on a cork floor", keyword: "music corner", description: "A djembe, a speaker and a pallet table make a relaxed corner for evenings at home.", alt: "A living room with a drum, a beanbag and a wooden pallet table" },
      { title: "Build a pallet table in an afternoon", keyword: "pallet table", description: "Two sanded pallets stacked and waxed: the table in this room took one afternoon.", alt: "A coffee table made of wooden pallets with a wine bottle on top" },
    ],
  },
  {
    file: "aitzgorri-autumn.jpg", width: 1600, height: 1065, dominant: "#587838", author: "Aitzol Berasategi", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "travel",
    captions: [
      { title: "Aitzgorri in autumn colours", keyword: "Aitzgorri", description: "Beech woods turning copper below the limestone ridge of Aitzgorri in the Basque Country.", alt: "Autumn beech forest and a green meadow below a rocky mountain ridge" },
      { title: "Hiking the Basque mountains in October", keyword: "Basque mountains", description: "Green pastures, orange beeches and a grey ridge: October is the month for this walk.", alt: "A mountain ridge above autumn woods and pasture" },
      { title: "Meadows below the ridge", keyword: "mountain meadow", description: "A quiet meadow at the edge of the woods, with the ridge behind. Bring a picnic.", alt: "A grassy slope with autumn trees and mountains beyond" },
    ],
  },
  {
    file: "bird-ornament-lamps.jpg", width: 1600, height: 1200, dominant: "#f8f8f8", author: "Peter Nerlich", licence: CC_BY_SA_4, sourcePackage: LOMIRI_16, topic: "home",
    captions: [
      { title: "A little bird flying under the lights", keyword: "hanging bird", description: "A small wooden bird on a thread, hung from a globe lamp: it turns gently whenever the door opens.", alt: "A green wooden bird ornament hanging below round lamps" },
      { title: "Globe pendant lamps with a playful touch", keyword: "globe pendant", description: "White globe pendants give soft light; the bird ornament keeps the ceiling from looking too serious.", alt: "White globe lamps with a bird ornament on a string" },
      { title: "Hang something light from the ceiling", keyword: "ceiling decor", description: "A mobile or a single ornament gives a white room something to look at.", alt: "A bird figure with spread wings below glowing lamps" },
    ],
  },
  {
    file: "spaniels-wooden-hut.jpg", width: 1065, height: 1600, dominant: "#c8c8c8", author: "Aitzol Berasategi", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "home",
    captions: [
      { title: "Two spaniels at the cabin door", keyword: "cocker spaniels", description: "Two cocker spaniels peek out of a wooden cabin, waiting for the walk.", alt: "Two brown cocker spaniels looking out of a wooden cabin door" },
      { title: "Who's home? A pet-friendly cabin", keyword: "pet-friendly cabin", description: "Weathered boards, a curtain and two curious dogs: a cabin that welcomes pets.", alt: "Dogs peering from the doorway of a grey wooden hut" },
      { title: "Waiting for the walk", keyword: "dog walk", description: "The look every dog owner knows: two spaniels at the door, ready to go.", alt: "Two spaniels with long ears at a cabin entrance" },
    ],
  },
  {
    file: "wall-clock.jpg", width: 1600, height: 1200, dominant: "#a8a8a8", author: "Peter Nerlich", licence: CC_BY_SA_4, sourcePackage: LOMIRI_16, topic: "home",
    captions: [
      { title: "A minimal white wall clock", keyword: "wall clock", description: "Thin hands, no numbers and a soft shadow: a clock that stays quiet on a white wall.", alt: "Close-up of a white wall clock with thin black hands" },
      { title: "Clean lines for a calm room", keyword: "minimal decor", description: "A numberless clock is the easiest way to add a focal point without clutter.", alt: "A white clock face with slim hour markers in soft light" },
      { title: "Make time the centrepiece", keyword: "statement clock", description: "Hang a large clock at eye level and let it be the only thing on that wall.", alt: "Angled view of a modern clock face and its hands" },
    ],
  },
  {
    file: "forest-stream.jpg", width: 1600, height: 1065, dominant: "#181818", author: "Aitzol Berasategi", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "travel",
    captions: [
      { title: "A mossy stream in the woods", keyword: "forest stream", description: "A stream runs over white rocks through a green, mossy wood. Wear shoes that can get wet.", alt: "A small stream flowing over rocks in a green forest" },
      { title: "Waterfalls hidden in the forest", keyword: "forest waterfall", description: "Follow the stream uphill and it turns into a string of small falls between the trees.", alt: "Cascades between rocks and trees in a dense wood" },
      { title: "A cool walk for a hot day", keyword: "shaded walk", description: "The shade and the sound of water make this trail the place to be in August.", alt: "A rocky stream bed under tall trees" },
    ],
  },
  {
    file: "picos-de-europa-path.jpg", width: 1600, height: 1200, dominant: "#5878a8", author: "Aitzol Berasategi", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "travel",
    captions: [
      { title: "A trail into the Picos de Europa", keyword: "Picos de Europa", description: "A path winds across high pasture towards jagged limestone peaks with the last snow on them.", alt: "A dirt path across a grassy plateau towards rocky snow-flecked peaks" },
      { title: "High pastures and limestone peaks", keyword: "limestone peaks", description: "Big clouds, bare peaks and a path you can follow all day. Start early to beat the heat.", alt: "Limestone mountains under white clouds above green pasture" },
      { title: "Hiking northern Spain", keyword: "northern Spain", description: "The Picos are a few hours from the coast and feel like another world.", alt: "A hiking path leading to a mountain range" },
    ],
  },
  {
    file: "dandelions-sunset.jpg", width: 1600, height: 900, dominant: "#181808", author: "Clemens Engelhardt", licence: CC0, sourcePackage: LOMIRI_16, topic: "home",
    captions: [
      { title: "Dandelion clocks at sunset", keyword: "dandelion clocks", description: "A meadow full of dandelion seed heads, backlit by the evening sun.", alt: "Dandelion seed heads glowing in low sunlight in a meadow" },
      { title: "Let part of the lawn go wild", keyword: "wild lawn", description: "Leave a corner unmown and by June it looks like this: seed heads everywhere and bees in the day.", alt: "A field of dandelion puffballs at golden hour" },
      { title: "Golden hour in the garden", keyword: "golden hour garden", description: "The last light of the day turns every seed head into a lamp.", alt: "Backlit dandelions and grass at sunset" },
    ],
  },
  {
    file: "hilltop-sunset.jpg", width: 1600, height: 1067, dominant: "#181818", author: "Aitzol Berasategi", licence: CC_BY_4, sourcePackage: LOMIRI_16, topic: "travel",
    captions: [
      { title: "Sunset from the summit", keyword: "summit sunset", description: "The sun sets over layers of hills, seen from a rocky summit with a viewpoint marker.", alt: "The sun low over distant hills seen from a rocky hilltop" },
      { title: "Walk up for the last light", keyword: "sunset hike", description: "A short climb after dinner, a flask of tea and this view. Take a torch for the way down.", alt: "A sunburst over a valley from a stony summit" },
      { title: "Evening on the ridge", keyword: "ridge walk", description: "Warm light over the hills and the valleys already in shadow.", alt: "Hills fading into haze under a setting sun" },
    ],
  },
  {
    file: "nuthatch-tree-trunk.jpg", width: 1600, height: 900, dominant: "#f8f8f8", author: "Lukas Baubkus", licence: CC_BY_SA_3, sourcePackage: LOMIRI_20, topic: "travel",
    captions: [
      { title: "A nuthatch on an old tree", keyword: "nuthatch", description: "A nuthatch walks head first down the bark of an old trunk, as only nuthatches do.", alt: "A small blue-grey bird clinging head down to a tree trunk" },
      { title: "Birdwatching in the park", keyword: "birdwatching", description: "Sit still by an old tree for ten minutes and the nuthatches come back.", alt: "A nuthatch on rough bark with a blurred park behind" },
      { title: "Small birds, big trees", keyword: "garden birds", description: "Rough bark hides insects and seeds: big old trees feed more birds than you think.", alt: "Close-up of a tree trunk with a nuthatch on its side" },
    ],
  },
  {
    file: "water-drop-splash.jpg", width: 1600, height: 1000, dominant: "#88a8c8", author: "Charles Barbin", licence: GPL_2, sourcePackage: MATE, topic: "diy",
    captions: [
      { title: "Photograph a falling water drop", keyword: "water drop photography", description: "A drop of water lands in a pool and throws up a crown. A flash and a fast shutter freeze it.", alt: "A water droplet splashing into a pool, forming a crown" },
      { title: "Splash photography at the kitchen sink", keyword: "splash photography", description: "A dripping tap, a dark bowl of water and patience: high-speed photography at home.", alt: "Close-up of a splash crown on a blue-grey water surface" },
      { title: "Freeze the moment", keyword: "high-speed photography", description: "Try shutter speeds of 1/1000 s or faster, and focus manually where the drops fall.", alt: "A frozen splash of water in cool blue light" },
    ],
  },
  {
    file: "green-leaf-veins.jpg", width: 1600, height: 1000, dominant: "#88d818", author: "Lennart Poettering, Andrea Cimitan", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "A fresh green leaf, up close", keyword: "green leaf", description: "Fine veins running across a bright green leaf, lit from behind.", alt: "Macro view of a bright green leaf with curving lines" },
      { title: "Bring more green indoors", keyword: "houseplants", description: "Big-leaved houseplants by a window give a room colour and soft, filtered light.", alt: "Backlit green leaf surface with fine parallel veins" },
      { title: "Colour inspiration: spring green", keyword: "spring green", description: "A zesty green that works on one wall, a cushion or a single plant pot.", alt: "A close-up of a leaf in vivid yellow-green" },
    ],
  },
  {
    file: "dune-grass-sea.jpg", width: 1600, height: 1000, dominant: "#98b8d8", author: "Marco Cogoni, Hylke Bons", licence: GPL_2, sourcePackage: MATE, topic: "travel",
    captions: [
      { title: "Dune grass above a blue sea", keyword: "dunes", description: "Golden marram grass on the dunes, with the sea bright blue beyond. Keep to the paths: the grass holds the dunes.", alt: "Tall dry grass on a dune in front of a blue sea" },
      { title: "A quiet beach behind the dunes", keyword: "quiet beach", description: "Cross the dunes and the crowds thin out: this is where we spend whole afternoons.", alt: "Beach grass in the foreground and the sea on the horizon" },
      { title: "Summer by the sea", keyword: "seaside summer", description: "Warm grass, a cool sea and nobody else around.", alt: "Golden grass stems against a sea and sky" },
    ],
  },
  {
    file: "orange-gerbera.jpg", width: 1600, height: 1203, dominant: "#a81808", author: "Jens Ansorg", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "An orange gerbera, petal by petal", keyword: "gerbera", description: "A single orange gerbera fills the frame. One stem in a bottle vase is enough for a table.", alt: "Close-up of an orange gerbera flower" },
      { title: "One bold flower for the table", keyword: "single stem vase", description: "A bright gerbera lasts a week or more in fresh water: trim the stem every few days.", alt: "Vivid orange petals of a daisy-like flower" },
      { title: "Warm colours for autumn rooms", keyword: "warm colours", description: "Orange, rust and red: take the palette of this flower into cushions and throws.", alt: "Orange flower petals in soft focus" },
    ],
  },
  {
    file: "red-marigold.jpg", width: 1600, height: 1000, dominant: "#a80808", author: "Charles Barbin", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "A red marigold in the border", keyword: "marigold", description: "A red and yellow French marigold in full sun. They flower from June to the first frost.", alt: "A red marigold flower with yellow edges on a green background" },
      { title: "Easy flowers for a sunny bed", keyword: "sunny border", description: "Marigolds grow from seed in weeks, keep flowering, and keep pests off the tomatoes next to them.", alt: "Red marigold petals and buds in a garden" },
      { title: "Companion planting with marigolds", keyword: "companion planting", description: "Plant marigolds between vegetables: the colour is a bonus.", alt: "A marigold in bloom with a soft yellow background" },
    ],
  },
  {
    file: "spring-grass.jpg", width: 1280, height: 1024, dominant: "#68a828", author: "Timothy Schellhase, Lapo Calamandrei", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "New grass in spring", keyword: "spring lawn", description: "Fresh blades of grass, bright green after the rain. Reseed bare patches in April.", alt: "Close-up of fresh green grass blades" },
      { title: "A lawn worth lying on", keyword: "lawn care", description: "Mow high, water deeply and rarely: the grass grows thick and soft like this.", alt: "Dense bright green grass seen at ground level" },
      { title: "Wheatgrass on the windowsill", keyword: "wheatgrass", description: "A tray of wheatgrass grows this tall in a week on a sunny sill.", alt: "Tall green shoots of young grass" },
    ],
  },
  {
    file: "ladybird-forget-me-nots.jpg", width: 1600, height: 1000, dominant: "#587818", author: "Charles Barbin", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "A ladybird among forget-me-nots", keyword: "ladybird", description: "A ladybird climbs a grass stem between tiny blue forget-me-nots. Ladybirds eat aphids: let them stay.", alt: "A red ladybird on a grass stem beside small blue flowers" },
      { title: "Invite ladybirds into the garden", keyword: "wildlife garden", description: "Leave a few hollow stems and some wild corners, and ladybirds will overwinter with you.", alt: "Ladybird and forget-me-not flowers in a green garden" },
      { title: "Forget-me-nots in May", keyword: "forget-me-nots", description: "They self-seed everywhere and fill the spring borders with blue.", alt: "Pale blue forget-me-not flowers with a ladybird" },
    ],
  },
  {
    file: "raindrops-leaves.jpg", width: 1600, height: 1000, dominant: "#081808", author: "\"blackcombwhistler07\"", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "Raindrops on fresh leaves", keyword: "raindrops", description: "Beads of rain on broad green leaves after a summer shower.", alt: "Water droplets on bright green leaves" },
      { title: "The garden after the rain", keyword: "rain garden", description: "Plants with broad leaves catch the rain and make the garden smell green.", alt: "Close-up of wet leaves with round raindrops" },
      { title: "Green and glossy: leaf texture", keyword: "leaf texture", description: "A close look at glossy leaves: inspiration for a green bathroom.", alt: "Glossy leaves covered in droplets" },
    ],
  },
  {
    file: "storm-over-road.jpg", width: 1600, height: 1067, dominant: "#384868", author: "Sergey Nazarov", licence: GPL_2, sourcePackage: MATE, topic: "travel",
    captions: [
      { title: "A storm rolling over the plain", keyword: "storm clouds", description: "Dark clouds close in over a flat road. Pull over, and wait it out with this view.", alt: "Dark storm clouds over a flat landscape and a road" },
      { title: "Road trip under a heavy sky", keyword: "road trip", description: "Long straight roads and a sky that changes every hour: the plains are better than their reputation.", alt: "A blurred road in the foreground under a grey-blue storm sky" },
      { title: "Weather watching on the open road", keyword: "open road", description: "Blue-grey light before the rain, seen from the car window.", alt: "A stormy sky over an empty road" },
    ],
  },
  {
    file: "dandelion-seeds.jpg", width: 1600, height: 1000, dominant: "#384818", author: "Charles Barbin, Hylke Bons", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "Two dandelion seeds taking off", keyword: "dandelion seeds", description: "Two seeds about to leave a dandelion head, in front of orange flowers.", alt: "Two dandelion seeds on a seed head against blurred orange flowers" },
      { title: "Make a wish", keyword: "make a wish", description: "The last two seeds of a dandelion clock: a small moment in the garden.", alt: "Feathery dandelion seeds in soft light" },
      { title: "Soft colours from the garden", keyword: "garden colours", description: "Blurred orange and green behind fine white seeds: a palette for a soft bedroom.", alt: "Macro of dandelion seeds with warm bokeh" },
    ],
  },
  {
    file: "weathered-wood.jpg", width: 1600, height: 1200, dominant: "#d8d8b8", author: "Jean-François Fortin Tam", licence: GPL_2, sourcePackage: MATE, topic: "diy",
    captions: [
      { title: "Weathered wood, up close", keyword: "weathered wood", description: "Grey, sun-bleached boards with a fine grain. Reclaimed wood like this makes lovely shelves.", alt: "Close-up of pale weathered wooden boards" },
      { title: "Give new wood a weathered look", keyword: "wood finish", description: "Steel wool in vinegar, brushed on and left a day, greys new pine like old boards.", alt: "Sun-bleached wood grain in soft light" },
      { title: "Working with reclaimed boards", keyword: "reclaimed wood", description: "Check for nails, sand lightly and keep the patina: old boards need little else.", alt: "Pale wooden planks seen at a low angle" },
    ],
  },
  {
    file: "yellow-flower.jpg", width: 1600, height: 1000, dominant: "#080808", author: "Charles Barbin", licence: GPL_2, sourcePackage: MATE, topic: "home",
    captions: [
      { title: "A yellow daisy in full sun", keyword: "yellow daisy", description: "Bright yellow petals open against a dark background: summer in one flower.", alt: "A bright yellow daisy-like flower on a dark background" },
      { title: "Sunny yellow for the balcony", keyword: "balcony flowers", description: "Yellow daisies flower all summer in pots: water them often and deadhead them weekly.", alt: "Close-up of a yellow flower with a golden centre" },
      { title: "Colour inspiration: sunflower yellow", keyword: "sunflower yellow", description: "A warm yellow against charcoal: a combination that works on walls and in textiles.", alt: "Yellow petals glowing in front of deep shadow" },
    ],
  },
];

export function photoByFile(file: string): Photo {
  const photo = PHOTOS.find((candidate) => candidate.file === file);
  if (!photo) throw new Error(`no photo ${file}`);
  return photo;
}

/** The pin's media attribution: the photographer, the licence and where the original is. */
export function photoAttribution(photo: Photo): Record<string, string> {
  return {
    author: photo.author,
    ccUrl: photo.licence.url,
    licenseName: photo.licence.name,
    link: packageUrl(photo.sourcePackage),
    mediaType: "image",
    providerName: `Debian (${photo.sourcePackage})`,
  };
}
