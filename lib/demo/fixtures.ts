// The raw material of the demo workspace: plausible people, places and conversations.

export const DEMO_APP_NAME = "Demo";
export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "demo-password";

export const ADMINS = [
  { email: DEMO_EMAIL, name: "Dana Demo", role: "owner" },
  { email: "sam.support@example.com", name: "Sam Rivera", role: "operator" },
  { email: "priya.sales@example.com", name: "Priya Nair", role: "operator" },
] as const;

export const CHANNELS = ["General", "Sales", "Support"] as const;
export type ChannelName = (typeof CHANNELS)[number];

export const FIRST_NAMES: readonly string[] = (
  "Olivia Liam Emma Noah Ava Lucas Mia Ethan Sofia Mateo Chloe Hugo Amelia Leo Isla Omar Yuki " +
  "Ines Jonas Freya Arjun Zara Mikhail Elena Tomás Aisha Kenji Nora Felix Lena Diego Maya Pavel " +
  "Hana Samuel Clara Ravi Lucia"
).split(" ");

export const LAST_NAMES: readonly string[] = (
  "Smith Garcia Müller Rossi Dubois Kowalski Tanaka Silva Novak Jensen Ivanova Patel Kim Nguyen " +
  "Okafor Haddad Larsen Moreau Fischer Costa Walsh Berg Romero Sato Petrov Cohen Lindqvist Mendes " +
  "Brennan Horvat"
).split(" ");

export const COMPANIES: readonly string[] = (
  "Northwind, Bluebird Labs, Acme Retail, Globex, Initech, Brightside Travel, Kettle & Co, " +
  "Pinecone Health, Umbrella Media, Lumen Studio, Hooli, Vandelay Imports, Soylent Foods, " +
  "Stark Logistics, Wayne Fintech, Oceanic Air, Paper Street, Cyberdyne, Tyrell Design, " +
  "Monarch Solar"
).split(", ");

export const PLACES = [
  ["United States", "California", "San Francisco"],
  ["United States", "New York", "New York"],
  ["United States", "Texas", "Austin"],
  ["Canada", "Ontario", "Toronto"],
  ["United Kingdom", "England", "London"],
  ["United Kingdom", "Scotland", "Edinburgh"],
  ["Germany", "Berlin", "Berlin"],
  ["Germany", "Bavaria", "Munich"],
  ["France", "Île-de-France", "Paris"],
  ["Spain", "Catalonia", "Barcelona"],
  ["Italy", "Lombardy", "Milan"],
  ["Netherlands", "North Holland", "Amsterdam"],
  ["Poland", "Masovia", "Warsaw"],
  ["Sweden", "Stockholm", "Stockholm"],
  ["Brazil", "São Paulo", "São Paulo"],
  ["India", "Karnataka", "Bengaluru"],
  ["Japan", "Tokyo", "Tokyo"],
  ["Australia", "New South Wales", "Sydney"],
  ["Nigeria", "Lagos", "Lagos"],
  ["Mexico", "Mexico City", "Mexico City"],
] as const;

export const REFERRERS = [
  "https://www.google.com/",
  "https://www.bing.com/",
  "https://news.ycombinator.com/",
  "https://www.linkedin.com/",
  "https://t.co/",
  "https://www.producthunt.com/",
  "https://duckduckgo.com/",
] as const;

export const PLANS = ["free", "free", "starter", "starter", "pro", "enterprise"] as const;
export const SIGNUP_SOURCES = ["google", "referral", "newsletter", "direct", "facebook", "webinar"] as const;
export const INTERESTS = [
  "api",
  "mobile",
  "integrations",
  "reports",
  "automation",
  "security",
  "billing",
] as const;
export const USER_TAGS = [
  "vip",
  "newsletter",
  "beta-tester",
  "churn-risk",
  "enterprise-trial",
  "partner",
] as const;
export const PAGES = [
  "/",
  "/pricing",
  "/features",
  "/blog/launch",
  "/docs/api",
  "/signup",
  "/integrations",
] as const;

export const EVENT_TYPES = [
  { name: "Viewed page", score: 1 },
  { name: "Viewed pricing", score: 5 },
  { name: "Signed up", score: 20 },
  { name: "Started trial", score: 30 },
  { name: "Invited teammate", score: 15 },
  { name: "Added payment method", score: 40 },
  { name: "Completed purchase", score: 50 },
] as const;

export const USER_NOTES = [
  "Asked for a demo call next week.",
  "Evaluating us against two competitors; price sensitive.",
  "Reported the CSV export bug, fixed in the last release.",
  "Decision maker for a team of about 40 people.",
  "Prefers email over chat.",
] as const;

export const ADMIN_NOTES = [
  "Looping in Priya: this looks like an upsell.",
  "Checked the logs, nothing unusual on our side.",
  "Same question as last month, maybe worth a help article.",
  "Customer is on the legacy plan, be careful with the discount.",
] as const;

export interface Topic {
  channel: ChannelName;
  tags: readonly string[];
  user: readonly string[];
  admin: readonly string[];
}

/** Lines are used in order: user, admin, user, admin… so each conversation reads like one. */
export const TOPICS: readonly Topic[] = [
  {
    channel: "Sales",
    tags: ["pricing"],
    user: [
      "Hi! Is there a discount for annual billing?",
      "Great, and can we switch plans in the middle of the year?",
      "Perfect, thanks. I'll talk to my team.",
    ],
    admin: [
      "Hi there! Yes, annual billing saves you two months compared to monthly.",
      "Absolutely, upgrades are prorated and take effect immediately.",
      "Happy to help. Reach out any time!",
    ],
  },
  {
    channel: "Support",
    tags: ["bug"],
    user: [
      "The export button does nothing when I click it.",
      "Chrome, latest version. It worked yesterday.",
      "Yes, that fixed it. Thank you!",
    ],
    admin: [
      "Sorry about that! Which browser are you using?",
      "Thanks. We rolled out a fix a few minutes ago, could you reload the page?",
      "Glad to hear it. Have a nice day!",
    ],
  },
  {
    channel: "Support",
    tags: ["billing"],
    user: [
      "I was charged twice this month.",
      "The invoice numbers end in 4471 and 4472.",
      "Got it, I see the refund. Thanks.",
    ],
    admin: [
      "I'm sorry for the trouble. Could you send me the invoice numbers?",
      "Found them: the second charge is refunded, it can take 3 to 5 days to show up.",
      "You're welcome!",
    ],
  },
  {
    channel: "General",
    tags: ["feature-request"],
    user: ["Do you have a dark mode?", "Would love that. Any timeline?", "OK, looking forward to it."],
    admin: [
      "Not yet, but it's on our roadmap.",
      "We're aiming for next quarter. I've added your vote.",
      "We'll let you know as soon as it ships.",
    ],
  },
  {
    channel: "Sales",
    tags: ["demo"],
    user: [
      "Can I book a demo for my team?",
      "Thursday afternoon works, we're in CET.",
      "Received, see you then.",
    ],
    admin: [
      "Of course! Which day suits you best?",
      "Booked for Thursday 15:00 CET, the invite is in your inbox.",
      "See you Thursday!",
    ],
  },
  {
    channel: "Support",
    tags: ["integrations"],
    user: [
      "How do I connect my Slack workspace?",
      "I don't see the Integrations tab.",
      "Found it, it was hidden behind my role. Works now.",
    ],
    admin: [
      "Go to Settings, then Integrations, and click Connect next to Slack.",
      "Only admins see it: could you ask your workspace owner to give you admin rights?",
      "Great, enjoy!",
    ],
  },
  {
    channel: "General",
    tags: [],
    user: ["Hello, is anyone there?", "I wanted to know if you ship to Norway.", "Thanks!"],
    admin: ["Hi! Yes, how can I help?", "We do, delivery takes about a week.", "Anytime!"],
  },
  {
    channel: "Support",
    tags: ["account"],
    user: [
      "I can't log in, the reset email never arrives.",
      "Checked spam too, nothing there.",
      "It arrived now, thanks!",
    ],
    admin: [
      "Let me check. Which address did you sign up with?",
      "I've resent it manually, it may take a minute.",
      "Perfect. Let us know if anything else comes up.",
    ],
  },
];

export const CONVERSATION_TAGS = ["vip", "urgent", "follow-up"] as const;

export const SEGMENTS = [
  {
    name: "Paying customers",
    filters: {
      type: "or",
      filters: [
        { property_name: "plan", type: "str_eq", value: { value: "pro" } },
        { property_name: "plan", type: "str_eq", value: { value: "enterprise" } },
      ],
    },
  },
  {
    name: "Active leads this week",
    filters: {
      type: "and",
      filters: [
        { property_name: "$email", type: "known", value: {} },
        { property_name: "$last_seen", type: "daysless", value: { value: 7 } },
      ],
    },
  },
] as const;
