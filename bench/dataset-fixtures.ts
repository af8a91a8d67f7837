/**
 * Word lists the dataset generator draws from, most common first: the SQL picks an index with a power of a uniform
 * draw, so the first entries are the frequent ones (a long tail of rarer ones follows, as in real traffic).
 */
const list = (s: string) => s.split("|");

export const FIRST_NAMES = list(
  "James|Maria|John|Anna|Robert|Emma|Michael|Sofia|David|Olivia|Daniel|Laura|Thomas|Julia|Carlos|Sarah|Lucas|Chloe|Ahmed|Hannah|Pierre|Ines|Hiroshi|Priya|Mateo|Elena|Noah|Fatima|Liam|Camille|Arjun|Yuki|Oscar|Zoe|Felix|Amara|Ivan|Leila|Tomás|Björn",
);

export const LAST_NAMES = list(
  "Smith|Garcia|Müller|Johnson|Martin|Rossi|Brown|Silva|Dubois|Jones|Schmidt|Lopez|Williams|Kowalski|Nguyen|Taylor|Fischer|Moreau|Anderson|Kumar|Tanaka|Hernández|Wilson|Bernard|Costa|O'Brien|Novak|Jensen|Yilmaz|Petrov|Larsen|Okafor|Sato|Haddad|Fernández|Lefèvre",
);

export const EMAIL_DOMAINS = list(
  "gmail.com|yahoo.com|outlook.com|hotmail.com|icloud.com|proton.me|gmx.de|orange.fr|acme.io|globex.com|initech.co|hooli.xyz|umbrella-corp.com|stark.industries",
);

/** City, region, country, country calling code, minutes east of UTC: the visitor's geolocation. */
export const PLACES: [string, string, string, string, number][] = [
  ["New York", "New York", "United States", "1", -300],
  ["London", "England", "United Kingdom", "44", 0],
  ["San Francisco", "California", "United States", "1", -480],
  ["Berlin", "Berlin", "Germany", "49", 60],
  ["Paris", "Île-de-France", "France", "33", 60],
  ["São Paulo", "São Paulo", "Brazil", "55", -180],
  ["Chicago", "Illinois", "United States", "1", -360],
  ["Bengaluru", "Karnataka", "India", "91", 330],
  ["Toronto", "Ontario", "Canada", "1", -300],
  ["Madrid", "Madrid", "Spain", "34", 60],
  ["Amsterdam", "North Holland", "Netherlands", "31", 60],
  ["Sydney", "New South Wales", "Australia", "61", 600],
  ["Munich", "Bavaria", "Germany", "49", 60],
  ["Austin", "Texas", "United States", "1", -360],
  ["Manchester", "England", "United Kingdom", "44", 0],
  ["Tokyo", "Tokyo", "Japan", "81", 540],
  ["Mexico City", "CDMX", "Mexico", "52", -360],
  ["Lyon", "Auvergne-Rhône-Alpes", "France", "33", 60],
  ["Warsaw", "Masovia", "Poland", "48", 60],
  ["Lagos", "Lagos", "Nigeria", "234", 60],
  ["Stockholm", "Stockholm", "Sweden", "46", 60],
  ["Dublin", "Leinster", "Ireland", "353", 0],
  ["Singapore", "Singapore", "Singapore", "65", 480],
  ["Istanbul", "Istanbul", "Turkey", "90", 180],
  ["Buenos Aires", "Buenos Aires", "Argentina", "54", -180],
  ["Cape Town", "Western Cape", "South Africa", "27", 120],
];

export const REFERRERS = list(
  "https://www.google.com/|https://www.bing.com/|https://twitter.com/|https://www.linkedin.com/|https://news.ycombinator.com/|https://www.facebook.com/|https://duckduckgo.com/|https://www.reddit.com/|https://www.producthunt.com/|https://github.com/",
);

export const COMPANIES = list(
  "Acme|Globex|Initech|Hooli|Umbrella|Stark Industries|Wayne Enterprises|Wonka|Tyrell|Cyberdyne|Soylent|Vandelay|Pied Piper|Aperture Science|Massive Dynamic|Nakatomi Trading|Oscorp|Gringotts|Monsters Inc|Bluth Company|Dunder Mifflin|Prestige Worldwide|TechNova|Fintechly|Biotechnica|Dataflux|Cloudhaven|Quantum Leap Tech|Greenfield Farms|Northwind",
);

/** User tags (an operator's labels on a visitor), most frequent first. */
export const USER_TAGS = list("customer|trial|churn-risk|vip|partner|beta-tester|press|investor");

export const PLANS = list("free|pro|business|enterprise");
export const INTERESTS = list("analytics|billing|integrations|mobile|security|api|reporting|ai");
export const SOURCES = list("organic|adwords|newsletter|partner|webinar|referral");

/** Event types, most frequent first. */
export const EVENT_TYPES = list(
  "page_viewed|signed_in|viewed_pricing|opened_email|added_to_cart|checkout_completed|started_trial|invited_teammate|downloaded_app|cancelled_subscription",
);

export const PAGES = list("/|/pricing|/features|/blog|/docs|/signup|/login|/contact|/about");

export const USER_MESSAGES = list(
  "Hi, I have a question about my order|How do I change my billing details?|The app crashes when I upload a file|Can I get a refund for last month?|Is there an API for exporting reports?|I can't log in since yesterday|Do you offer discounts for nonprofits?|Thanks, that worked!|Still not working, sorry|Where can I find the invoice?|Can you add my teammate to the account?|¿Tienen soporte en español?",
);

export const ADMIN_MESSAGES = list(
  "Hi! Thanks for reaching out, let me check|Could you send me a screenshot?|I've forwarded this to our billing team|That's fixed now, could you try again?|You can find it under Settings → Billing|Sure, here is the link to our API docs|Happy to help, anything else?|I've applied the discount to your account",
);

export const NOTES = list("Customer on annual plan|Escalated to engineering|VIP: answer quickly");

export const CONVERSATION_TAGS = [["billing"], ["bug"], ["feature-request"], ["vip", "billing"], ["refund"]];
