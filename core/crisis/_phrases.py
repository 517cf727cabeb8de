"""Crisis phrase tables: data only, easy to extend.

Phrase families follow the Columbia Suicide Severity Rating Scale (C-SSRS) screener ladder: wish to be dead,
active thoughts, method, intent, plan, preparatory behaviour, plus self-harm, indirect warning signs and
third-person reports. Texts are matched as canonical tokens (see ``_normalise``), never as bare words.

Pattern language (one pattern = elements separated by spaces):

``word``          that token; ``a|b|c`` any of them; ``@NAME`` a macro (its alternatives may be several
                  words: ``going to``); ``(a b|c d)`` alternatives of several words (may hold macros)
``x?``            a trailing ``?`` makes the element optional
``~N``            skip 0..N tokens (never across a sentence end); ``~~N`` may cross sentence ends
``!a|b``          the next token is not one of these (zero width; the text end counts as "not")
``<b>``           a sentence end, a comma or the end of the text comes next (zero width)

Words are canonical tokens: lower case, contractions expanded (``don't`` → ``do not``, ``I'm`` → ``i am``),
slang and typos mapped (see :data:`REWRITE`). The compiler rejects anything else, so a typo in a pattern
fails at import instead of silently never matching.

Each entry of :data:`PATTERNS` is ``(family, category, pattern, flags)``. Flags:

``w``  weak signal: alerts only together with another weak family (e.g. "tallest bridge near me" +
       "I just want it to be over"), strong patterns alert alone
``n``  cleared by a negation just before it ("I'm *not* suicidal"), unless the negation is in another clause
``h``  slang that is often hyperbole ("kms"): cleared by "lol", "jk", 😂 or a following "if …", unless the
       text also says "not joking" / "I mean it"
``c``  cleared in research, media, fiction or game context ("suicide rates", "Juliet stabs herself")
``j``  cleared in a job farewell ("last day", "new job")
``a``  cleared by accident context ("cut myself shaving")
``m``  cleared by moving / decluttering context ("giving away my stuff before the move")
``o``  alerts only when the phrase is the whole text, punctuation aside (a message that is just "suicide",
       often spelled out to dodge filters: "s u i c i d e", "5u1c1d3")
``t``  slang that is also a technical term: cleared when written as code or an acronym ("KMS", "local-kms",
       "modules/kms", "kms.tf", "KMS_KEY_ID")

Categories: wish_dead, ideation, method, intent, plan, preparatory, self_harm, warning_sign, third_person;
marker categories (never alerts): ``exclude`` vetoes strong hits inside its span ("shoot myself in the
foot"), ``serious``, ``job``, ``accident``, ``moving`` feed the flags above.
"""

from __future__ import annotations

import re

# ---------------------------------------------------------------------------------------------------------
# characters

ZERO_WIDTH = frozenset("\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
                       "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068"
                       "\u2069\u206a\u206b\u206c\u206d\u206e\u206f\ufe00\ufe01\ufe02\ufe03\ufe04\ufe05"
                       "\ufe06\ufe07\ufe08\ufe09\ufe0a\ufe0b\ufe0c\ufe0d\ufe0e\ufe0f\ufeff\u3164\uffa0")
APOSTROPHES = frozenset("\u2018\u2019\u02bc\u02b9\u2032\uff07\u0060\u00b4")

#: Look-alike letters from other scripts (Cyrillic, Greek) read as Latin.
CONFUSABLES = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "һ": "h",
    "ӏ": "l", "ı": "i", "ɩ": "i", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ℓ": "l", "∂": "d", "ø": "o", "ß": "ss",
    "æ": "ae", "œ": "oe", "đ": "d", "ł": "l", "ŀ": "l", "ħ": "h",
}

#: Emoji read as words. Self words around them decide ("i want to 🔫 myself").
EMOJI = {
    "🔫": "emojigun", "💊": "pills", "🪢": "hang", "⚰": "emojigrave", "🪦": "emojigrave", "🔪": "stab", "🗡": "stab",
    "🩸": "blood", "☠": "dead", "🌉": "bridge", "🚆": "train", "🚂": "train", "🚄": "train", "🚇": "train",
    "😂": "lol", "🤣": "lol", "💀": "emojiskull", "😹": "lol", "😆": "lol",
}

# ---------------------------------------------------------------------------------------------------------
# token rewrites (applied to whole tokens; the value is the canonical token sequence)

_REWRITE_TEXT = """
dont=do not; cant=can not; cannot=can not; wont=will not; didnt=did not; doesnt=does not; isnt=is not
wasnt=was not; arent=are not; werent=were not; havent=have not; hasnt=has not; hadnt=had not
wouldnt=would not; shouldnt=should not; couldnt=could not; aint=is not; mustnt=must not; dnt=do not
im=i am; ima=i am going to; imma=i am going to; ive=i have; youre=you are; theyre=they are
theyd=they would; youd=you would; shes=she is; hes=he is; thats=that is; whats=what is; wats=what is
gonna=going to; gunna=going to; gona=going to; finna=going to; wanna=want to; wana=want to; wann=want to
gotta=got to; tryna=trying to; hafta=have to; lemme=let me; outta=out of; kinda=kind of
wnat=want; wnt=want; watn=want; wamt=want; whant=want; wanto=want to; wantto=want to
dei=die; dye=die; dieee=die; ded=dead; deadd=dead
kil=kill; kll=kill; kiil=kill; kilk=kill; kilm=kill; klil=kill; kilinng=killing; killin=killing; kiling=killing
myslef=myself; mysef=myself; mysefl=myself; myslf=myself; mysel=myself; meself=myself; mself=myself
mysself=myself; myselff=myself; slef=self; lfie=life; lief=life; lyf=life; lyfe=life
thinkin=thinking; thinkn=thinking; thinkng=thinking; thnking=thinking; thinkig=thinking; thinknig=thinking
bout=about; abt=about; abut=about; aobut=about; alot=a lot
tmrw=tomorrow; tmr=tomorrow; tmrow=tomorrow; tmrrw=tomorrow; tomoro=tomorrow; tomorow=tomorrow
2morrow=tomorrow; 2moro=tomorrow; 2mrw=tomorrow; tmw=tomorrow
tonite=tonight; cuttin=cutting; suicidle=suicidal; 2nite=tonight; 2night=tonight; tnite=tonight; tn=tonight; tonigth=tonight
rn=right now; u=you; ur=your; urself=yourself; ppl=people; pls=please; plz=please; cuz=because
bc=because; coz=because; cos=because; nobodys=nobody is; noone=nobody; everyones=everyone is
wld=would; wud=would; shud=should; cud=could; b4=before; luv=love; jus=just; jst=just
sewerslide=suicide; sewersiide=suicide; suiside=suicide; sucide=suicide; endin=ending; liveing=living; brige=bridge; comit=commit; cuting=cutting; agin=again; agan=again; alvie=alive; anymroe=anymore; purpos=purpose; hav=have; suicde=suicide; suiced=suicide
suicid=suicide; sucidal=suicidal; suicdal=suicidal; sui=suicide; ctb=suicide; selfharm=selfharm
selfharming=selfharm; selfharmed=selfharm; selfinjury=selfharm; selfdelete=self delete
unalive=unalive; unaliv=unalive; unalived=unalived; unaliveing=unaliving; unalivin=unaliving
od=overdose; oding=overdosing; odd=odd; overdoes=overdose; ovrdose=overdose
killmyself=kill myself; kms=kms; kys=kys; endmylife=end my life
lmao=lol; lmfao=lol; lmaooo=lol; rofl=lol; lolol=lol; lool=lol; haha=lol; hahaha=lol; hahah=lol; hehe=lol
jk=jk; jkjk=jk; xd=lol
"""


def _parse_rewrites(text: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for item in re.split(r"[;\n]", text):
        if "=" in item:
            k, v = item.split("=", 1)
            out[k.strip()] = tuple(v.split())
    return out


REWRITE: dict[str, tuple[str, ...]] = _parse_rewrites(_REWRITE_TEXT)

#: ``X'm`` → X am … (``n't`` is handled separately)
CONTRACTION_TAILS = {"m": "am", "re": "are", "ve": "have", "ll": "will", "d": "would"}
#: ``can't`` → can not, ``won't`` → will not … (stem before ``n't``)
NT_STEMS = {"ca": ("can", "not"), "wo": ("will", "not"), "ai": ("is", "not"), "sha": ("shall", "not"),
            "do": ("do", "not")}
#: ``she's`` → she is; other ``'s`` are possessives and are dropped
S_IS_PRONOUNS = frozenset("he she it that there what who where here how everyone everybody nobody life".split())

#: Multi-token spellings joined into one canonical sequence.
MULTI_TEXT = """
my self=myself; my selfe=myself; your self=yourself; you self=yourself; him self=himself; her self=herself
them selves=themselves; them self=themself; their self=themself; one self=oneself; ones self=oneself
sewer slide=suicide; sewer side=suicide; sewer slided=suicide; toaster bath=suicide; s word=suicide
self harm=selfharm; self harming=selfharm; self harmed=selfharm; self injury=selfharm; self injure=selfharm
self mutilation=selfharm; un alive=unalive; un aliving=unaliving; no one=nobody; no body=nobody
over dose=overdose; k m s=kms; commit die=suicide
better of=better off; with out=without; it al=it all
"""
MULTI: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]] = {}
for _item in re.split(r"[;\n]", MULTI_TEXT):
    if "=" in _item:
        _k, _v = _item.split("=", 1)
        _seq = tuple(_k.split())
        MULTI[_seq[0]] = (*MULTI.get(_seq[0], ()), (_seq, tuple(_v.split())))
MULTI_FIRST = frozenset(MULTI)
MULTI_LAST: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]] = {}
for _pairs in MULTI.values():
    for _seq, _repl in _pairs:
        MULTI_LAST[_seq[-1]] = (*MULTI_LAST.get(_seq[-1], ()), (_seq, _repl))
MULTI_LAST_SET = frozenset(MULTI_LAST)

# ---------------------------------------------------------------------------------------------------------
# macros

MACROS: dict[str, str] = {
    "SELF": "myself",
    "SELF3": "himself|herself|themselves|themself|themselfs|hisself|theirselves",
    "YOURSELF": "yourself|yourselves|oneself",
    "TO": "to|2|too|ta",
    "ADV": "just|really|simply|actually|finally|seriously|honestly|literally|truly|already|definitely|all|even|"
           "so|kinda|kind of|sort of|probably|maybe|fucking|fr",
    # verbs of killing oneself (present forms only: past tense reads as history or accident)
    "KILL": "kill|killing|kills|unalive|unaliving|off|offing|murder|murdering|end|ending|terminate|terminating|"
            "suicide|neck|necking|rope|roping",
    "METHODV": "hang|hanging|shoot|shooting|emojigun|poison|poisoning|gas|gassing|electrocute|electrocuting|suffocate|"
               "suffocating|strangle|strangling|stab|stabbing|overdose|overdosing|asphyxiate|immolate|"
               "behead|decapitate|defenestrate|drown|drowning",
    "ANYKILL": "@KILL|@METHODV",
    "DIE": "die|dye|perish|emojigrave",
    # desire verbs that take "to" ("want to die", "need 2 die")
    "WANTD": "want|wanted|wanting|wants|wish|wished|wishing|need|needed|needing|would like|would love|d like|"
             "desire|long|longing|yearn|yearning|deserve|tempted|urge|urges|ready|craving|begging|hope|hoping",
    # intent, "to" included ("going to kill myself", "will end my life")
    "INTENT": "going to|going 2|goin to|about to|ready to|planning to|planning on|plan to|plan on|decided to|"
              "will|shall|ill|fixing to|trying to|try to|tried to|attempt to|attempting to|gon|gotta|got to|"
              "have to|need to|must|should|should just|could just|might just|might|may|would",
    "THINK": "thinking about|thinking of|think about|think of|thought about|thought of|thoughts of|"
             "thoughts about|thinkin about|considering|contemplating|consider|obsessing over|obsessing about|"
             "fantasizing about|fantasize about|dreaming of|dreaming about|dream about|planning|plotting",
    "LEAD": "@WANTD @TO|@INTENT|@THINK|@HOWQ|i|i am|i will|i would|i could",
    "HOWQ": "how to|how do i|how can i|how could i|how should i|how would i|how would one|how do you|how can you|"
            "how does one|how do people|how does someone|how to best|how i can|how i could|how i should|"
            "how would you|how might i|how do|how can|way to|ways to|method to|methods to|method of|"
            "methods of|way of|ways of|best way to|easiest way to|quickest way to|fastest way to|"
            "surest way to|painless way to|simplest way to|safest way to|quietest way to|cleanest way to|"
            "best ways to|easiest ways to|painless ways to|least painful way to|most painless way to|"
            "where to|where can i|where do i|tips to|tips on how to|guide to|tutorial on how to|"
            "what is the best way to|what is the easiest way to|help me",
    "BE": "was|were|am|could be|would be|had been|were just|was just",
    "P3": "he|she|they|friend|brother|sister|son|daughter|mom|mother|dad|father|wife|husband|partner|"
          "girlfriend|boyfriend|roommate|coworker|colleague|teammate|student|kid|child|someone|somebody|"
          "customer|user|cousin|buddy|classmate|bestie|bff|niece|nephew|grandma|grandpa|uncle|aunt",
    "POSS3": "his|her|their",
    "PILLS": "pills|pill|meds|medication|medications|medicine|tablets|tablet|ibuprofen|tylenol|acetaminophen|"
             "paracetamol|aspirin|antidepressants|antidepressant|painkillers|sleeping pills|oxy|oxycodone|"
             "xanax|benzos|insulin|opioids|opiates|prescription|prescriptions|mg|lithium|seroquel|ambien|"
             "fentanyl|heroin|sertraline|zoloft|prozac|benadryl|advil|motrin|nyquil|percocet|vicodin",
    "HIGH": "bridge|building|cliff|roof|rooftop|parking garage|garage|tower|balcony|overpass|ledge|"
            "skyscraper|top floor|dam|parking structure|multistory",
    "VEHICLE": "train|trains|bus|truck|car|cars|traffic|subway|tracks|lorry|semi|oncoming traffic",
    "GONE": "not here|not around|not alive|gone|dead|died|dying|disappeared|never born|never existed|"
            "did not exist|killed myself|not in the picture|out of the picture",
    "STUFF": "stuff|things|belongings|possessions|everything|pets|cat|dog|guitar|car|clothes|games|books|"
             "collection|valuables|jewelry|savings|money|stuff away|things away",
    "MYPOSS": "my|all my|all of my|his|all his|her|all her|their|all their|most of my|some of my",
    "PET": "cat|cats|dog|dogs|pet|pets|kids|children|kid|plants|fish|rabbit|bird|hamster|puppy|kitten",
    "TIME": "tonight|today|tomorrow|weekend|morning|evening|midnight|soon|monday|tuesday|wednesday|thursday|"
            "friday|saturday|sunday|birthday|week|month|tmrw",
    "TREATS": "caffeine|coffee|sugar|candy|memes|chocolate|energy drinks|red bull|netflix|tiktok|anime|"
              "cuteness|pizza|cookies|vitamins|vitamin|sunshine|cat videos",
    "DEVNOUN": "process|processes|thread|threads|worker|workers|contract|contracts|object|objects|pod|pods|"
               "container|containers|daemon|child|parent|server|node|function|program|job|task|goroutine|"
               "instance|instances|service|script|kernel|app|bot|session|tab|vm|actor|fiber|coroutine",
    # methods named as nouns ("die from hanging", "is carbon monoxide painless")
    "METHODN": "hanging|drowning|overdose|overdosing|an overdose|carbon monoxide|co poisoning|helium|exit bag|"
               "bleeding out|blood loss|suffocation|asphyxiation|a gunshot|gunshot|poisoning|poison|cyanide|"
               "antifreeze|bleach|slit wrists|slitting my wrists|freezing to death|a fall|@PILLS",
    "METHODN2": "drowning|overdose|overdosing|an overdose|carbon monoxide|co poisoning|helium|exit bag|bleeding out|"
                "suffocation|asphyxiation|a gunshot|gunshot|poisoning|cyanide|antifreeze|freezing to death|@PILLS",
    "BODY": "wrists|wrist|arms|arm|thighs|thigh|legs|leg|skin|stomach|hips|hip|hands|hand|face|forearm|forearms",
    "NOTLIVE": "live|exist|be alive|keep living|go on living|stay alive|be living|wake up tomorrow|"
               "wake up anymore|wake up again|be on this earth|be in this world|continue living",
}

_DIE_NOT = "!of|laughing|for|on|happy|old|rich|inside|laughin|from|trying|hard|cringe|alone|peacefully|in|with|at"
_P3_NOT = "!on|of|laughing|for|trying|in"

# ---------------------------------------------------------------------------------------------------------
# patterns: (family, category, pattern, flags)

PATTERNS: list[tuple[str, str, str, str]] = [
    # ---- wish to be dead (C-SSRS 1) -------------------------------------------------------------------
    ("wish_dead", "wish_dead", "wish|wishing|wished that? i @BE @ADV? dead|deceased|unalive", "n"),
    ("wish_dead", "wish_dead", "wish that? i @BE @ADV? (never born|not born|not alive|never alive)", "n"),
    ("wish_dead", "wish_dead", "wish that? i ~2 (never been born|never existed|not exist|stop existing|died)", "n"),
    ("wish_dead", "wish_dead", "wish i could|would ~2 (die|disappear forever|cease to exist|stop existing|stop being alive)", "n"),
    ("wish_dead", "wish_dead", "wish that? i ~2 died|gone|go|went with him|her|them|mom|dad", "w"),
    ("wish_dead", "warning_sign", "(passed away|funeral|lost my|since she died|since he died|@P3 died|my @P3 died)", "w"),
    ("sleep_no_wake", "wish_dead", "sleep|asleep|sleeping ~2 and @ADV? never|not wake", ""),
    ("sleep_no_wake", "wish_dead", "sleep|asleep forever|permanently", "w"),
    ("sleep_no_wake", "wish_dead", "hope|hoping|pray|praying|wish i @ADV? never|not wake", ""),
    ("sleep_no_wake", "wish_dead", "@WANTD @TO? @ADV? not wake up? !early|before|at|until|till|in|on", ""),
    ("sleep_no_wake", "wish_dead", "never wake up again", ""),
    ("sleep_no_wake", "wish_dead", "rather not wake up", ""),
    ("want_die", "wish_dead", f"@WANTD @TO @ADV? @DIE {_DIE_NOT}", "n"),
    ("want_die", "wish_dead", "@WANTD @TO @ADV? @DIE (in my sleep|tonight|today|now|already|right now|so bad|so badly|fr)", "n"),
    ("want_die", "wish_dead", "@WANTD @TO @ADV? (disappear forever|disappear permanently|disappear for good|vanish forever)", "n"),
    ("want_die", "wish_dead", "@WANTD @TO @ADV? (be dead|not exist|not be alive|not live|stop existing|cease to exist|stop living|be gone forever|not be here anymore|not be around anymore|stop breathing)", "n"),
    ("want_die", "wish_dead", "rather @ADV? (be dead|not exist|not be alive|not live|not be here|not wake up)", "n"),
    ("want_die", "wish_dead", "rather @ADV? die !than", "n"),
    ("want_die", "wish_dead", "better off dead", ""),
    ("want_die", "wish_dead", "hope|hoping|pray|praying i @ADV? (die|drop dead|get hit by|do not survive|never wake up)", "n"),
    ("want_die", "wish_dead", "hope|hoping|pray|praying|wish|wishing ~3 (kills me|takes me|ends me|kill me|end me) !off|out|up|with|on|in|at", "n"),
    ("want_die", "wish_dead", "hope|hoping|pray|praying|wish|wishing ~5 (kills me|takes me|ends me|kill me|end me) in my sleep", "n"),
    ("want_die", "wish_dead", "hope|hoping|pray|praying|wish|wishing ~3 car|bus|truck|train|driver|lightning|meteor|asteroid|someone|somebody|something ~2 hit|hits|kill|kills|(run me over)|(runs me over)|(hit me)|(hits me) me? !up|back|with|on|in|at|for|about", "n"),
    ("want_die", "wish_dead", "@WANTD someone|somebody|something @TO (kill me|end me|shoot me|end my life)", "n"),
    ("want_die", "intent", "@INTENT @ADV? @DIE @TIME", "n"),
    ("not_want_live", "wish_dead",
     "not @ADV? @WANTD @TO @ADV? @NOTLIVE !in|with|there|here|near|at|on|under|without|somewhere|anywhere|nearby|close|together|forever", ""),
    ("not_want_live", "wish_dead",
     "not @ADV? @WANTD @TO @ADV? (be here|be around|go on|exist|be alive|live) ~1 anymore|longer|more", ""),
    ("want_end", "ideation", "@WANTD @ADV? (it all|everything) @TO @ADV? end|stop|(be over)", "n"),
    ("want_end", "ideation", "@WANTD @TO @ADV? end everything", "n"),
    ("want_over", "warning_sign", "@WANTD @ADV? it|this @TO @ADV? end|stop|(be over) <b>", "w"),
    ("not_want_live", "wish_dead", "not ~3 @WANTD @TO @ADV? @NOTLIVE !in|with|there|here|near|at|on|under|without|somewhere|anywhere|nearby|close|together|forever", ""),
    ("not_want_live", "wish_dead", "not ~3 @WANTD @TO @ADV? (be alive|exist|live) ~1 anymore|longer|more", ""),
    ("not_want_live", "wish_dead", "not @ADV? @WANTD @TO @ADV? (be here|be around) <b>", "w"),
    ("want_die", "wish_dead", "@WANTD @TO @ADV? sleep|rest forever|permanently|(and never wake up)|(and not wake up)", "n"),
    ("want_die", "wish_dead", "feel|feeling|felt like dying|(ending it)|(ending it all)|(killing myself)|(ending my life)|(disappearing forever) !laughing|of|from", "n"),
    ("sleep_no_wake", "wish_dead", "hope|hoping|pray|praying|wish i @ADV? (do not|will not|would not|never|not) @ADV? wake", ""),
    ("want_die", "wish_dead", "kill|end me ~1 please|(right now)|now", "w"),
    ("wish_dead", "wish_dead", "wish i could|would ~2 (sleep forever|go to sleep forever|sleep and never wake up|fall asleep forever)", "n"),
    ("sleep_no_wake", "wish_dead", "not wake up ~6 fine|okay|ok|alright|(fine by me)", ""),
    ("sleep_no_wake", "wish_dead", "fall|go ~1 asleep|(to sleep) forever <b>", ""),
    ("want_die", "wish_dead", "hoping|hope ~2 (the last time|my last night|the last night|i do not wake up|i never wake up) <b>", ""),
    ("wish_dead", "wish_dead", "waiting to die", "n"),
    ("wish_dead", "wish_dead", "care if|whether i live or die", ""),
    ("wish_dead", "wish_dead", "not mind ~2 if ~3 (heart stopped|heart simply stopped|heart just stopped|i died|i did not wake up|i never woke up|i was dead|i were dead)", ""),
    ("wish_dead", "wish_dead", "give anything ~1 to @ADV? (not exist|disappear|die|be dead|stop existing)", ""),
    ("sleep_no_wake", "wish_dead", "asleep and ~1 never ~2 feel|wake", ""),
    ("wish_dead", "wish_dead", "welcome death|dying", "n"),
    ("wish_dead", "wish_dead", "pain|noise|hurting|(it all)|everything ~5 stop forever", ""),
    ("wish_dead", "wish_dead", "pain ~1 to stop ~2 (any way|whatever it takes)", ""),
    ("wish_dead", "wish_dead", "(not mind|be fine|be okay|be ok) ~2 if ~1 a? bus|car|truck|train ~2 hit|hits|killed|kills me", ""),
    ("wish_dead", "wish_dead", "hoping|hope ~3 (get into|get in|have|am in|die in) ~1 a? (car accident|accident|crash)", "n"),
    ("wish_dead", "wish_dead", "hope|hoping ~2 the plane ~1 (goes down|crashes|falls)", "n"),
    ("wish_dead", "wish_dead", "(be fine|be okay|be ok|not mind) ~2 if i ~1 (never woke up|did not wake up|never wake up)", ""),
    ("wish_dead", "wish_dead", "fade away ~2 (never come back|forever|for good)", "n"),
    ("wish_dead", "wish_dead", "@WANTD|need ~2 the pain ~1 to end|stop <b>", ""),
    ("wish_dead", "wish_dead", "@WANTD|need ~2 the pain ~1 to end|stop permanently|forever", ""),
    ("wish_dead", "wish_dead", "stop permanently <b>", "w"),
    ("wish_dead", "wish_dead", "(not mind|be fine|be okay) ~2 if the plane ~1 (went down|goes down|crashed|crashes)", ""),
    ("wish_dead", "wish_dead", "hope|hopes|hoping ~3 i ~1 (do not wake up|never wake up)", "n"),
    ("want_die", "wish_dead", "@WANTD @TO @ADV? @DIE for ~1 months|weeks|years|ages", "n"),
    ("want_die", "wish_dead", "@WANTD out ~1 of ~1 this|my? life|world|existence <b>", "n"),
    ("sleep_no_wake", "wish_dead", "wish|wishing|hope|hoping|pray|praying i would|could|will|did|might @ADV? never|not wake", ""),
    ("sleep_no_wake", "wish_dead", "@INTENT @ADV? (go to)? sleep|rest forever|permanently", "nh"),
    ("want_die", "wish_dead", "emojigrave ~1 @TIME", "hc"),
    ("want_die", "wish_dead", "@WANTD @TO @ADV? emojiskull|emojigun <b>", "n"),

    # ---- active thoughts (C-SSRS 2) ---------------------------------------------------------------------
    ("kill_self", "ideation", "@ANYKILL @SELF !laughing", "n"),
    ("kill_self", "intent", "@INTENT @ADV? @ANYKILL @SELF !laughing", "n"),
    ("kill_self", "ideation", "yeet|yeeting|throw|hurl|launch|fling @SELF ~1 (off|from|in front of|into traffic|out of|into the void)", "n"),
    ("kill_self", "intent", "@INTENT @ADV? yeet|throw|hurl|launch|fling @SELF ~1 (off|from|in front of|out of)", "n"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? self delete|deleting|unalive|terminate", "n"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? delete|erase @SELF <b>", "n"),
    # a developer's words for it: "kill -9 myself", "delete myself tonight", "exit(0) from this world"
    ("kill_self", "ideation", "@LEAD? @ADV? kill 9|sigkill @SELF", "n"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? delete|erase|uninstall|terminate @SELF ~1 @TIME|forever|permanently|(for good)", "n"),
    ("kill_self", "ideation", "delete|deleting|erase|erasing|uninstall|uninstalling|exit|exiting|quit|quitting|remove|removing @SELF? ~2 (from this world|from existence|from the world|from this life|from life|from this planet)", "n"),
    ("jump", "method", "push|pushing|throw|throwing|fling|launch|yeet @SELF off|from ~3 @HIGH", "nh"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? rope|neck <b>", "n"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? rope|neck @TIME", "n"),
    ("kill_self", "ideation", "@THINK @ADV? roping|necking", "n"),
    ("end_life", "ideation", "end|ending|finish|finishing|terminate|terminating @ADV? my own? life|lives !insurance|savings|story|policy|expectancy|cycle|support", "n"),
    ("end_life", "ideation", "take|taking my own life", "n"),
    ("end_life", "ideation", "take|taking my life !savings|back|into|in|to|story|insurance|as|for|seriously|more|easier|over|apart|out|hostage|experience|lessons|photos|pictures|stuff|things|plans|easy|off|up|on", "n"),
    ("end_life", "intent", "@INTENT @ADV? end|take|finish|terminate my own? life !insurance|savings|story|back|into|in|policy|expectancy|cycle|support|to|as", "n"),
    ("end_life", "ideation", "end|ending it all !up", "nc"),
    ("end_life", "intent", "@INTENT @ADV? end it all !up", "nc"),
    ("end_life", "ideation", "end|ending it @ADV? (tonight|today|tomorrow|forever|for good|once and for all|this weekend|soon|tmrw)", "n"),
    ("end_life", "ideation", "@WANTD @TO @ADV? end it <b>", "n"),
    ("end_life", "ideation", "@WANTD @TO @ADV? end it ~1 now|@TIME", "n"),
    ("end_life", "intent", "@INTENT @ADV? end it <b>", "n"),
    ("end_life", "intent", "@INTENT @ADV? end it ~1 now|@TIME", "n"),
    ("end_life", "ideation", "@THINK @ADV? ending it <b>", "n"),
    ("end_life", "ideation", "@THINK @ADV? ending it ~1 all|@TIME", "n"),
    ("end_life", "ideation", "@THINK @ADV? (ending my life|taking my own life|ending things|ending everything)", "n"),
    ("end_life", "ideation", "@THINK @ADV? dying !my|her|his|the|their|it|them|your|hair|in|of|from|for|to|on|at|with|process|processes|workers|pods|and", "n"),
    ("end_life", "ideation", "before|after|until|when|because|then i ~1 end it <b>", "n"),
    ("suicide", "ideation", "@THINK @ADV? a|my|about? suicide|suicidal !prevention|awareness|rates|rate|research|statistics|hotline|lifeline|risk|rates|squad|burn|door|doors|bomber|bombers|bombing", "n"),
    ("suicide", "ideation", "@WANTD @TO @ADV? commit? suicide", "n"),
    ("suicide", "intent", "@INTENT @ADV? commit? suicide", "n"),
    ("suicide", "ideation", "i ~2 commit|committing suicide", "n"),
    ("suicide", "ideation", "suicide is|seems|feels|looks|sounds|keeps ~3 only|tempting|appealing|attractive|calling|(way out|on my mind|all i think)", "n"),
    ("suicide", "ideation", "suicide looking|sounding|seeming|feeling ~2 tempting|good|appealing|better|nice|attractive", "n"),
    ("suicide", "ideation", "suicidal", "nc"),
    ("suicide", "ideation", "(i am|feel|feeling|felt|been|get|getting|got|going|gone|go|become|becoming) @ADV? very? suicidal", "n"),
    ("suicide", "ideation", "suicidal thoughts|thought|feelings|feeling|urges|urge|again|tonight|today|lately|rn|thinking|episode|mood|mode|af|(right now)", "nc"),
    ("suicide", "ideation", "i|me|my ~3 suicidal thoughts|feelings|urges|thought|urge", "n"),
    ("suicide", "ideation", "my suicide|suicidal !prevention|awareness|research|study|squad|burn|door|doors", "n"),
    ("suicide", "ideation", "urge|urges|impulse|impulses @TO @ADV? die|suicide|selfharm", "n"),
    ("suicide", "ideation", "suicidal ideation|thoughts ~2 again|back|returned|keep|(coming back)", "n"),
    ("kms", "ideation", "kms", "ht"),
    ("kms", "ideation", "i am? @ADV? (@INTENT|@WANTD @TO|should|could|might) @ADV? kys", "h"),
    ("kms", "ideation", "(@WANTD @TO|@THINK) kys", "h"),
    ("might_as_well", "warning_sign", "might|may as well @ADV? (make it official|end it|be dead|die|not exist|kill myself|disappear)", "w"),
    ("try_again", "intent", "@THINK ~1 (trying|doing it|try it|attempting) again", "w"),
    ("end_life", "ideation", "(@INTENT|i) @ADV? end things|everything <b>", "n"),
    ("end_life", "ideation", "(@INTENT|i) @ADV? end things|everything ~1 @TIME", "n"),
    ("end_life", "ideation", "@THINK @ADV? (ending things|ending everything|catching the bus|catch the bus) !to|home|at|from|back|instead|into|in", "n"),
    ("kms", "ideation", "kermit|commit suicide", ""),
    ("suicide", "ideation", "suicide is|seems|feels|sounds ~3 good|nice|better|best|easier|(the answer)|(the solution)|(my only option)", "c"),
    ("suicide", "ideation", "suicide @ADV? tonight|tomorrow|tmrw|soon|today", "c"),
    ("suicide", "ideation", "@THINK the suicide", "n"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? unalive|unaliving <b>", "n"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? unalive|unaliving ~1 @TIME", "n"),
    ("end_life", "ideation", "catch|catching the bus (for good|forever|for real|permanently|one last time)", "n"),
    ("relief", "ideation", "dying|death|(not being alive)|(not existing)|(being dead)|(not waking up) ~1 would|feels|feel|sounds|seems|is ~2 like? ~1 a? relief|peaceful|nice|comforting|appealing|tempting|(the only way out)|(only way out)|(the answer)", "nc"),
    ("no_future", "ideation", "nothing|anything left ~1 (to live for)", ""),
    ("no_future", "ideation", "(run out of|ran out of|no more|no) reasons ~1 (to stay|to live|to keep going|to go on|to keep living)", ""),
    ("no_future", "ideation", "only way ~3 stop|stops|end|ends ~2 if i ~1 (not here|gone|dead|die|disappear)", ""),
    ("no_future", "ideation", "(not sure|do not know if|do not know whether) i ~1 want to survive|live|(be alive)|(keep living)|(stay alive)", ""),
    ("suicide", "ideation", "suicide ~3 (on my mind)|(in my head)|(all i think about)|(crossing my mind)|(in my thoughts)", "nc"),
    ("end_life", "ideation", "@WANTD @TO @ADV? end things|everything <b>", "n"),
    ("tired_life", "ideation", "done|tired|sick|exhausted|finished ~~6 (with being alive|of being alive|with living|of living) <b>", "n"),
    ("want_die", "ideation", "i should ~2 die|(be dead)|(kill myself)|(not exist) <b>", "nh"),
    ("want_die", "ideation", "(@WANTD @TO|@INTENT) @ADV? unalive|unaliving <b>", "nh"),
    ("want_die", "ideation", "(@WANTD @TO|@INTENT) @ADV? unalive|unaliving now|(right now)|@TIME", "nh"),
    ("suicide", "ideation", "(@WANTD @TO|@INTENT) @ADV? go suicide", "nh"),
    ("disappear", "ideation", "(@WANTD @TO|@INTENT) @ADV? disappear ~2 (never come back|forever|for good|and never be found)", "nh"),
    ("end_life", "ideation", "(this close|so close|close|about) to ending|end everything|(it all)|things", "n"),
    ("end_life", "ideation", "@THINK ~2 ways to (end it|end my life|die|kill myself)", "n"),
    ("wish_dead", "ideation", "easy|easier ~5 (stop existing|not exist|disappear forever|to die|just die)", "n"),
    ("no_future", "ideation", "no way out ~3 except|but|(other than) ~2 dying|death|(to die)|suicide|(killing myself)", ""),
    ("no_future", "ideation", "not ~3 (a single reason|one reason|any reason) ~1 (to keep going|to live|to stay|to go on)", ""),
    ("end_life", "ideation", "catch|catching the bus|train ~2 (the permanent kind|to the other side)", "n"),
    ("end_life", "ideation", "last train out ~3 life", "n"),
    ("end_life", "ideation", "express|train|bus|ticket ~2 to the other side", "n"),
    ("end_life", "ideation", "quit|quitting|(quit button) ~2 on? life", "h"),
    ("end_life", "ideation", "be a ghost ~1 soon|@TIME", "h"),
    ("want_die", "ideation", "@WANTD @TO @ADV? be unalived", "n"),
    ("formal", "ideation", "no longer ~1 wish|want ~1 to ~1 (continue living|live|go on)", ""),
    ("end_life", "ideation", "urge|urges ~1 to end things|it|everything|(my life)", "n"),
    ("end_life", "ideation", "@THINK @ADV? ending it ~2 since|because|lately|(a lot)|again|more", "n"),
    ("end_life", "ideation", "(by my own hand)|(end matters myself)", ""),
    ("end_life", "ideation", "ending|end my own? story ~2 (for real)", "n"),
    ("no_future", "ideation", "only|one ~1 exit ~4 permanent", ""),
    ("no_future", "ideation", "only way out ~4 (not be here|to die|to not be here|death|suicide|dying)", ""),
    ("slang", "ideation", "(dirt nap)|(the long nap)|(logging out of life)|(log out of life)", "h"),
    ("slang", "ideation", "@INTENT @ADV? rope <b>", "h"),
    ("slang", "ideation", "@INTENT @ADV? rope (for real)|tonight|(right now)", "h"),
    ("slang", "ideation", "(@WANTD @TO|@INTENT) @ADV? unexist", "h"),
    ("slang", "ideation", "(checking out|check out) early", "w"),
    ("suicide", "ideation", "considered|contemplated|considering|contemplating ~1 suicide|(killing myself)|(ending my life)|(ending it all)", "nc"),
    ("relief", "ideation", "imagining|picturing|imagine|picture my own? funeral ~5 relief|peaceful|comforting|nice", ""),
    ("overdose", "ideation", "@THINK @ADV? overdosing|(an overdose)", "nc"),
    ("no_future", "ideation", "out of this ~2 except|but ~1 dying|death|(to die)|(by dying)", ""),
    ("slang", "ideation", "@WANTD @TO @ADV? be (six feet under)", "h"),
    ("slang", "ideation", "(a final exit)|(the final exit)|(doing a final exit)", "h"),
    ("slang", "ideation", "(end things|end it all|end it) permanently", "n"),
    ("slang", "ideation", "become|be a ghost ~2 literally", "h"),
    ("slang", "ideation", "(going to be|gonna be) a statistic <b>", "h"),
    ("slang", "ideation", "(going to be|gonna be) a statistic soon", "h"),
    ("slang", "ideation", "done with this world|life|living <b>", "n"),
    ("jump", "ideation", "@THINK @ADV? (jumping in|jumping off) <b>", "n"),
    ("kill_self", "ideation", "want to kill yourself ~3 (every day|all the time|every night)", ""),
    ("no_future", "ideation", "one exit ~2 (i have left|left)", ""),
    ("no_future", "ideation", "no escape ~4 except one|(but one)", ""),
    ("suicide", "ideation", "suicide thoughts|thought|urges|urge", "nc"),
    ("end_life", "ideation", "@THINK ~1 ending|end my own? story", "n"),
    ("slang", "ideation", "(check out|checking out) for good", "h"),
    ("slang", "ideation", "@THINK|considering ~1 the permanent solution", ""),
    ("slang", "ideation", "unalive hours|thoughts", "h"),
    ("end_life", "ideation", "imagining|picturing|planning ~1 how i would|will|could do it", "n"),
    ("crash", "ideation", "@THINK @ADV? swerving|steering|driving into ~3 oncoming|truck|traffic|wall|tree", "n"),
    ("no_future", "ideation", "death|dying ~3 (only exit|the only exit)", ""),
    ("slang", "ideation", "@INTENT @ADV? kys|kms ~1 tonight|@TIME", ""),
    ("slang", "ideation", "(ready to|going to|gonna|want to) go to the other side", "h"),
    ("slang", "ideation", "become|be a ghost ~1 (for real|literally)", "h"),
    ("slang", "ideation", "(log off|logging off) from? life", "h"),
    ("slang", "ideation", "(see|meet) god ~1 early|soon", "h"),
    ("slang", "ideation", "unalive ~1 (to be honest|honestly)", "h"),
    ("slang", "ideation", "permanently ~1 (checking out|check out)", "h"),
    ("bare", "ideation", "suicide|suicidal|unalive|unaliving|selfharm|(kill myself)|(end my life)|(end it all)", "o"),
    ("bare", "ideation", "(i want|i need|want|need) suicide", "o"),
    ("kill_self", "ideation", "time @TO @ADV? (self delete|unalive|unalive myself|kms|kill myself|end my life)", "h"),
    ("kill_self", "ideation", "(@INTENT|@WANTD @TO|@THINK) @ADV? become|becoming a|another statistic", "nh"),
    ("kill_self", "ideation", "unalive|unaliving|(self delete) ~1 @TIME", "h"),
    ("kill_self", "ideation", "@THINK @ADV? (self deleting|self delete|unaliving|unalive|kms|kys)", "n"),
    ("kill_self", "ideation", "(@INTENT|@WANTD @TO) @ADV? kys myself|me", "h"),
    ("kill_self", "ideation", "(@WANTD @TO|@INTENT) @ADV? unalive me", "nh"),
    ("kms", "ideation", "emojigun me <b>", "h"),
    ("kms", "ideation", "emojigun me ~1 now|please|pls|already|rn|(right now)", "h"),

    # ---- method seeking (C-SSRS 3) ---------------------------------------------------------------------
    ("method_how", "method", "@HOWQ @ADV? @ANYKILL|@DIE|hurt|harm|cut @SELF", ""),
    ("method_how", "method", "@HOWQ @ADV? @ANYKILL|hurt|harm|cut @YOURSELF !a|some|slack|in", "c"),
    ("method_how", "method", "@HOWQ @ADV? commit? suicide", ""),
    ("method_how", "method", "@HOWQ @ADV? (overdose|od|unalive|selfharm|end my life|end it all|take my own life|take my life|bleed out|overdosing)", ""),
    ("method_how", "method", "@HOWQ @ADV? @DIE !gracefully|cleanly|properly|when|with|if|after|on|in|off|out|safely|quickly|fast|immediately|on|the|and|at|from", "c"),
    ("method_how", "method", "hurt|painful|painless|hurts ~1 @TO (die|drown|hang|overdose|od|bleed out|suffocate|die by|shoot myself|hang yourself|hang myself)", "c"),
    ("method_how", "method", "painless|easy|quick|quickest|easiest|surest|fastest|best|reliable|peaceful|simplest|cleanest|gentlest|sure|effective ~1 way|ways|method|methods|means ~1 @TO|of (die|dying|end it|suicide|commit suicide|overdose|od|end my life|killing myself|kill myself)", "c"),
    ("method_how", "method", "(how long|how quickly|how fast|how much time) ~4 @TO (drown|bleed out|suffocate|starve to death|freeze to death|od|overdose|bleed to death)", "c"),
    ("method_how", "method", "does|would|will|(is it) ~2 hurt|painful ~1 @TO @METHODV|die|slit|jump", "c"),
    ("method_how", "method", "(how high|how far|what height|how many floors|how many stories) ~6 @TO? die|fatal|lethal|(make sure)|guarantee", "c"),
    ("method_how", "method", "(make sure|ensure|guarantee|be sure|be certain) i ~2 (die|not survive|not wake|never wake|do not survive|do not wake|am dead|will not wake|will not survive|never come back)", ""),
    ("overdose", "method", "(@WANTD @TO|@INTENT) @ADV? overdose|od !the|it|them|this|that|our|your|their|api|server|us|on|you|him|her", "n"),
    ("overdose", "method", "(how many|how much|enough|what amount|what dose) ~4 @TO (overdose|od|die|be fatal|be lethal|kill me|kill a person|kill someone|stop my heart|not wake up|end it|never wake up|kill myself)", ""),
    ("overdose", "method", "(how many|how much) ~4 (lethal|fatal|deadly|kill you|kill me)", ""),
    ("overdose", "method", "lethal|fatal|deadly|toxic dose|amount|quantity|overdose (of my|for my|of these|of all my|of his|of her|of their|of the pills)", ""),
    ("overdose", "method", "lethal|fatal|deadly dose|amount|quantity|level|combination|combo|mix", "wc"),
    ("overdose", "method", "@PILLS ~4 (deadly|lethal|fatal|kill you|kill me|kill a person|overdose on)", "wc"),
    ("overdose", "method", "take|taking|swallow|swallowing|down|downing ~2 whole|entire|full bottle|box|pack|packet|jar|strip|blister", ""),
    ("overdose", "plan", "swallowed|took|taken|downed|ate|(overdosed on)|(od on) ~1 everything|whole|entire ~4 @PILLS|cabinet|bottle|box|pack|packet", ""),
    ("overdose", "plan", "swallowed|took|taken|downed|ate all|every ~1 my|the|of ~1 @PILLS", "w"),
    ("overdose", "plan", "i ~2 (overdosed|took an overdose|taken an overdose)", ""),
    ("overdose", "method", "(@THINK|@WANTD @TO|@INTENT) taking|take|swallowing|swallow|downing|down|eating ~1 all|every|everything|(the rest)|(them all)", "w"),
    ("pills", "method", "@PILLS", "w"),
    ("pills", "method", "mix|mixing|combine|combining ~1 alcohol|booze|vodka|wine|whiskey|beer|drinks ~2 with|and ~2 @PILLS", "w"),
    ("stockpile", "preparatory", "stockpile|stockpiling|stockpiled|hoarding|hoard|hoarded|(saving up)|(saved up)|stashing|stashed ~3 @PILLS", ""),
    ("stockpile", "preparatory", "@PILLS ~1 (saved up|stockpiled|stashed|hoarded)", ""),
    ("stockpile", "preparatory", "enough ~1 @PILLS", "w"),
    ("stockpile", "preparatory", "months|weeks|month|week|days worth", "w"),
    ("stockpile", "preparatory", "stockpiling|stockpile|stockpiled|hoarding", "w"),
    ("noose", "method", "tie|tying|tied|make|making|made|buy|bought|get|got|build|hang|hung|(set up)|(setting up) ~2 noose|nooses", ""),
    ("noose", "method", "noose ~4 (hold my weight|strong enough|around my neck|for myself|for me|ready|tonight)", ""),
    ("noose", "method", "(noose|nooses|exit bag|helium hood|charcoal burning|hanging point)", "w"),
    ("noose", "method", "(exit bag|helium hood|suicide bag|suicide method|suicide methods|suicide kit|suicide forum)", "c"),
    ("gun", "method", "buy|get|buying|getting|purchase|purchasing|need|bought|got|borrow|borrowing ~2 gun|firearm|pistol|handgun|rifle|shotgun|revolver|bullets|ammo", "w"),
    ("gun", "method", "gun|pistol|handgun|firearm|revolver ~3 (my head|to my head|in my mouth|against my head|my temple)", ""),
    ("gun", "method", "put|putting|stick ~1 a bullet ~2 (my head|my brain|my brains|in me)", ""),
    ("gun", "method", "blow|blowing ~1 (my brains out|my head off)", ""),
    ("jump", "method", "(@WANTD @TO|@INTENT) @ADV? jump|leap|(throw myself)|(fling myself)|jumping|leaping off|from ~3 @HIGH", "n"),
    ("jump", "method", "(@WANTD @TO|@INTENT) @ADV? jump|leap|step|walk|run|(lie down)|(lay down)|(throw myself)|jumping|stepping|walking (in front of)|under|into|onto ~2 @VEHICLE", "n"),
    ("jump", "method", "tallest|highest|high|tall|closest|nearest ~2 @HIGH ~3 (near me|nearby|around here|in town|close to me|to jump|jump from|jump off)", "w"),
    ("jump", "method", "tallest|highest ~1 @HIGH", "w"),
    ("jump", "method", "@HIGH ~4 (to jump|jump from|jump off|high enough to die|fall from)", "w"),
    ("jump", "method", "(rooftop access|roof access|unlock the roof|get on the roof|get onto the roof)", "w"),
    ("jump", "method", "express|train|trains|subway|metro|freight ~6 not|never stop", "w"),
    ("jump", "method", "express|train|trains|freight ~3 (pass through|go through|come through|fastest|full speed)", "w"),
    ("jump", "method", "(how high|how many floors|how many stories) ~4 jump|fall|drop", "w"),
    ("jump", "method", "jump|jumping|leap|leaping off|from ~2 @HIGH", "w"),
    ("crash", "method", "crash|crashing|drive|driving|swerve|swerving|wreck ~3 into|off ~2 wall|tree|truck|oncoming|traffic|cliff|bridge", "w"),
    ("crash", "method", "hope|hoping|pray|praying|wish i ~1 crash|wreck|(get hit)|(get killed)", "n"),
    ("crash", "method", "(on purpose|deliberately|intentionally) ~3 hoping|hope|(so i)|crash|die", "w"),
    ("quick", "warning_sign", "at least it|that|this ~2 quick|fast|painless|over|instant", "w"),
    ("quick", "warning_sign", "look|looks|seem|seems|appear|appears ~1 like an accident", "w"),
    ("quick", "warning_sign", "family|kids|wife|husband ~4 insurance|payout", "w"),
    ("quick", "warning_sign", "(without it hurting|without pain|without feeling it|without suffering|painlessly)", "w"),
    ("drown", "method", "drown|sink ~6 stop|stopped|quit swimming", ""),
    ("drown", "method", "stop|stopped|quit swimming ~4 drown|die|sink", ""),
    ("drown", "method", "(@HOWQ|@WANTD @TO|@INTENT) @ADV? drown|suffocate|(bleed out)|(stop breathing) !in|with|under|from|out", "n"),
    ("method_how", "method", "does|would|will|do|is ~1 @METHODV|overdosing|hanging|drowning|dying|(slitting my wrists)|suffocating|bleeding|jumping ~4 hurt|painful|painless|hurts|(take long)|quick", "c"),
    ("method_how", "method", "(how high|how tall|what height|how many floors|how many stories) ~12 fatal|lethal|die|(kill you)|(kill me)|(kill someone)|(to die)|deadly", "c"),
    ("overdose", "method", "(how many|how much) ~5 (count as an overdose|counts as an overdose|is an overdose|is a lethal|is lethal|is fatal|to overdose|for an overdose|for a lethal|would be lethal|would be fatal|kills you|will kill you|would kill you)", ""),
    ("jump", "method", "@THINK @ADV? jumping|leaping|(throwing myself) off|from|(in front of) ~3 @HIGH|@VEHICLE", "n"),
    ("jump", "method", "@INTENT @ADV? jump|leap ~1 @TIME", "n"),
    ("jump", "method", "(on the roof|up on the roof|on the ledge|on the bridge|standing on the edge|on the edge of the|on the railing|on the tracks)", "w"),
    ("gun", "method", "gun ~4 staring at it|(keep looking at it)|(loaded)|(in my hand)|(in my mouth)", "w"),
    ("overdose", "method", "(@WANTD @TO|@INTENT) @ADV? overdose|od ~1 @TIME", "n"),
    ("noose", "method", "have|has|got|bought|buy|buying|tied|tie ~2 rope|ropes !to|for", "w"),
    ("method_how", "method", "(how long|how quickly|how fast|how much time|can you|can i|could i|would i|will i|do you|does it|would you|could you|can someone|can a person|is it possible to) ~5 @DIE|dying from|by|of ~3 @METHODN", "c"),
    ("method_how", "method", "(how deep|how hard|how far|where|which|what) ~5 cut|slit|slice|stab ~5 vein|veins|artery|arteries|wrist|wrists|(bleed out)|(bleed to death)", ""),
    ("method_how", "method", "lethal|fatal|deadly|(kill me)|(kill you) ~3 if|when i ~2 drink|take|swallow|eat|inhale|mix|ingest|inject", "c"),
    ("method_how", "method", "@METHODN2 ~4 painless|(a peaceful death)|(a quick death)|(a painless death)", "c"),
    ("overdose", "method", "num|(a bottle of)|(a whole bottle of)|(a box of)|(a handful of)|(all my)|(all of my)|(all these)|(all of these)|(all the) ~1 @PILLS ~3 (kill me|kill you|kill a person|kill someone|be lethal|be fatal|be enough|enough to die|do it|stop my heart)", ""),
    ("pills", "method", "pills pills ~2 @TIME|goodbye|bye|forever|emojigrave", ""),
    ("overdose", "method", "(how many|how much) ~4 @PILLS ~5 (would it take|it would take|it will take|does it take|to not wake up|not wake up|to wake up from|is too many|are too many|too many to)", "c"),
    ("overdose", "method", "lethal|fatal|deadly doses|amounts ~3 my|of ~2 @PILLS|meds", "c"),
    ("method_how", "method", "(least painful|painless|quickest|easiest|fastest|surest) ~1 way|ways ~1 to go <b>", "c"),
    ("method_how", "method", "@METHODN|jumping|shooting|(a gun)|(the gun) or @METHODN|jumping|shooting|(a gun)|(the gun)", "c"),
    ("method_how", "method", "how long ~4 to die ~2 if i", "c"),
    ("method_how", "method", "drink|drinking|swallow|swallowing|ingest|ingesting bleach|antifreeze|cyanide", "nc"),
    ("method_how", "method", "to|can|could|would|how ~2 drown|hang|suffocate|bleed fast|quickly|quick|painlessly|faster", "c"),
    ("jump", "method", "@HIGH|window|floor|roof|access ~~6 (@WANTD @TO|@INTENT|@THINK|think about) @ADV? jump|jumping|leap|leaping <b>", "nc"),
    ("jump", "method", "(@WANTD @TO|@INTENT) @ADV? jump|leap <b>", "w"),
    ("jump", "method", "jump|step|walk|run|lie|lay|throw ~2 (in front of) ~4 @VEHICLE", "nc"),
    ("jump", "method", "@HIGH|tracks|crossing|@VEHICLE ~6 (without fences|no fences|not have fences|no railing|without a railing|no barrier|without railings)", "c"),
    ("jump", "method", "how many feet|meters|stories|floors ~5 fatal|lethal|(kill you)|(to die)|(kill me)", "c"),
    ("method_how", "method", "(what knot|which knot|how to tie|tie a) ~5 noose", "c"),
    ("method_how", "method", "at once ~4 (would my heart stop|would i die|would it kill me|would i wake up)", "c"),
    ("method_how", "method", "poison|poisons ~3 undetectable|untraceable", "c"),
    ("method_how", "method", "undetectable|untraceable ~1 poison|poisons", "c"),
    ("method_how", "method", "make sure ~2 overdose ~1 works", "c"),
    ("method_how", "method", "fatal|lethal ~8 (how many to take|how much to take)", "c"),
    ("method_how", "method", "helium|(carbon monoxide)|(car exhaust) ~8 (fall asleep|painless|peaceful|quick)", "c"),
    ("method_how", "method", "most lethal|deadly ~3 (of my|of their|prescriptions|meds|@PILLS)", "c"),
    ("overdose", "method", "(how many|how much) ~4 @PILLS ~5 (never wake up|to never wake up)", "c"),
    ("method_how", "method", "car|garage ~8 (engine running|exhaust pipe|the exhaust with|hose)", "c"),
    ("overdose", "method", "what happens if ~1 you|i ~1 take|swallow|ate|eat|took num|(a whole bottle of)|(all my) ~1 @PILLS", "c"),
    ("overdose", "method", "@PILLS ~4 (and a bottle of vodka|and vodka|and alcohol|with vodka|with alcohol|and a bottle of wine)", "c"),
    ("method_how", "method", "(car running|engine running) ~~4 garage|car|tonight|@TIME", "c"),
    ("means_ready", "method", "belt|rope|cord|noose|scarf|cable ~2 around my neck", "c"),
    ("method_how", "method", "in the garage ~2 (with the car running|with the engine running|with the engine on)", "c"),
    ("method_how", "method", "(sitting|sat|sit|lying) ~4 (in my car|in the car) ~4 (engine running|engine on|car running)", "c"),
    ("overdose", "method", "(vodka|alcohol|wine) and ~1 all? my @PILLS", "c"),
    ("method_how", "method", "high enough ~5 (not survive|to be sure|to die|to kill me|that you die|to do it|be sure|definitely)", "c"),
    ("method_how", "method", "(be sure|make sure|sure) ~3 high enough", "c"),
    ("method_how", "method", "floor ~4 (would that do it|is that enough|would i survive|high enough)", "c"),
    ("overdose", "method", "all my|(all of my) @PILLS ~2 at once ~4 enough|(do it)|(kill me)", "c"),
    ("overdose", "method", "can you|can i|could i ~1 overdose|od on ~1 @PILLS", "w"),
    ("method_how", "method", "(quickest|easiest|fastest|best) ~1 way|ways ~1 to go ~2 (that does not hurt|without pain|painlessly|peacefully)", "c"),
    ("overdose", "method", "which|what @PILLS ~3 (kill you|kills you|would kill|can kill|actually kill)", "c"),
    ("method_how", "method", "pentobarbital|nembutal", "c"),
    ("method_how", "method", "hose ~4 exhaust", "c"),
    ("method_how", "method", "researching|researched|looking up methods <b>", "c"),
    ("method_how", "method", "researching|researched|looking up methods ~3 (found the one|for a week|for weeks)", "c"),
    ("overdose", "method", "overdose|od ~4 (and just die|and die|and not wake up)", "c"),
    ("method_how", "method", "chemicals ~6 (kill a person|kill someone|kill you|kill me)", "c"),
    ("overdose", "method", "(how much|how many) ~4 @PILLS ~3 (would kill|kill someone|kill a person|to kill)", "c"),
    ("means_ready", "method", "gun ~2 fast ~4 (without a waiting period|no waiting period)", "c"),
    ("method_how", "method", "@VEHICLE ~2 kill you ~1 instantly|quickly|immediately", "c"),
    ("overdose", "method", "would num of my ~3 (be enough|kill me)", "c"),
    ("method_how", "method", "bridge|roof|cliff ~6 (how high it is|see how high)", "c"),
    ("overdose", "method", "dosage|dose ~4 fatal|lethal ~~3 i am done", ""),
    ("crash", "method", "(@WANTD @TO|@INTENT) @ADV? crash|drive|swerve|steer|wreck ~3 into|off ~3 wall|tree|truck|oncoming|traffic|cliff|bridge|river|lake|pole|barrier|guardrail|ocean", "n"),
    ("jump", "method", "standing|sitting|stood|sat|climbed|climbing|(i am) on|over ~2 ledge|railing|(train tracks) !of", ""),
    ("jump", "method", "standing|sitting|stood|sat|climbed|climbing|(i am) on|over ~2 ledge|railing of ~2 @HIGH", ""),
    ("jump", "method", "(standing|sitting|i am) on ~1 the edge of ~1 the|a ~1 @HIGH", ""),
    ("jump", "method", "@INTENT @ADV? jump|leap <b>", "w"),

    # ---- intent / plan (C-SSRS 4, 5) -----------------------------------------------------------------
    ("intent", "intent", "scared|afraid|worried|terrified|frightened ~2 what i ~3 do ~1 to myself|(to me)", ""),
    ("intent", "intent", "do|doing something stupid|bad|drastic|terrible? to myself", "n"),
    ("intent", "intent", "anything|something stupid|drastic|permanent|final ~~8 (not until|until after|not yet)", ""),
    ("intent", "intent", "do|doing ~1 something|anything ~1 stupid|drastic|permanent|final|irreversible <b>", "w"),
    ("intent", "intent", "@INTENT do something stupid|drastic|permanent|final|irreversible ~2 @TIME", "n"),
    ("intent", "intent", "not|never ~2 planning|plan|expecting|expect|intending|intend ~1 @TO|on ~1 be|being|stay|staying|still|live|living ~1 around|alive|here", ""),
    ("intent", "intent", "not ~2 going|gonna ~1 @TO? be|being ~1 around|here|alive", "w"),
    ("intent", "intent", "not ~3 be|being alive ~3 for|next|by|(to see)|tomorrow|(much longer)|after|(this time)|anymore", "n"),
    ("intent", "plan", "not ~1 need|needing ~1 it|(any of it)|them|anything|this|that|these|those|(my stuff) ~4 after|(for long)|(much longer)|anymore|(where i)|soon", "w"),
    ("intent", "plan", "not ~2 (be here|be around) ~3 (@TO|for|when|after|next|tomorrow|much longer|to see)", "w"),
    ("intent", "plan", "last|final ~1 day|night|week|birthday|christmas|sunset|meal ~3 alive|(on earth)|(of my life)", "n"),
    ("intent", "plan", "(this is|it is|tonight is|today is) ~1 my|the ~1 last|final night|day|time", "w"),
    ("intent", "plan", "made|making|make ~1 my|the|a|(up my) ~1 decision|mind|choice", "w"),
    ("intent", "plan", "a plan <b>", "w"),
    ("intent", "plan", "a plan and|to|for", "w"),
    ("intent", "plan", "finally ~2 free|(at peace)|(at rest)|rest|(be gone)|over", "w"),
    ("intent", "plan", "permanent|eternal|forever|endless rest|sleep|nap", ""),
    ("intent", "plan", "(final goodbye|last goodbye|final sleep|final rest)", ""),
    ("intent", "plan", "permanent solution ~3 temporary problem|problems", ""),
    ("intent", "plan", "(feels like the right time|feel like the right time|seems like the right time|my time has come)", "w"),
    ("overdose", "plan", "taking|take|swallow|swallowing|downing|down every|(all the)|(all of the)|(the whole) ~1 pill|pills|tablets|(pill bottle)|@PILLS", ""),
    ("overdose", "plan", "took|swallowed|taken|downed|ate|(overdosed on) ~1 num ~2 pills|tablets|(sleeping pills)|painkillers|tylenol|ibuprofen|advil|xanax|antidepressants|benzos|oxy", ""),
    ("suicide", "plan", "suicide is|(will be) !not|never ~1 my|the ~1 plan|decision|choice|(way out)", "nc"),
    ("suicide", "plan", "my|the ~1 plan|decision|choice is|(will be) !not|never ~1 suicide|(to die)|(to kill myself)|"
     "(to end it all)|(to end my life)|(killing myself)|(ending it all)|(ending my life)|"
     "(to unalive myself)", "nc"),
    ("suicide", "plan", "suicide plan|plans", "nc"),
    ("intent", "plan", "(i will|i am going to|i will be|i am gonna) ~1 gone ~2 by|soon|forever|@TIME", "w"),
    ("overdose", "plan", "i ~2 took|swallowed|downed|taken all|every ~1 my|of|the ~1 my? @PILLS !today|this|for|on|at|like|as|yesterday|every|daily|before|after|in", ""),
    ("overdose", "plan", "took|swallowed|downed|taken|ate|(overdosed on) ~1 (a bunch of|a handful of|a lot of|loads of|tons of|so many|too many|a ton of|a fistful of|the whole bottle of|a whole bottle of) ~2 @PILLS", "a"),
    ("end_life", "intent", "(i|i have) ~1 decided to end it <b>", "n"),
    ("end_life", "intent", "(i|i have) ~1 decided to end it after|before|tonight|today|tomorrow|when", "n"),
    ("end_life", "intent", "(counting down|waiting for the right moment|waiting for the right time|waiting for the moment) ~6 end it|this|(it all)|(my life)|everything <b>", ""),
    ("goodbye", "intent", "ready to log off permanently|forever", "j"),
    ("intent", "plan", "a plan ~5 (follow through|go through with it)", "n"),
    ("intent", "plan", "i ~2 not ~1 need|needing ~1 it|(any of it)|them|anything|this|that ~2 after tonight|today|tomorrow", "jm"),
    ("intent", "plan", "at peace ~4 (know when|decided when|i know how)", "n"),
    ("intent", "intent", "pain|hurting ~6 (know how to make it stop|know how to end it)", ""),
    ("intent", "plan", "(plan|planning|going) to be dead|gone ~2 (by then|by the time)|@TIME", "n"),
    ("intent", "intent", "i ~3 not ~4 (be around|be here|be alive) ~1 (much longer|for long|for much longer)", ""),
    ("end_life", "intent", "(i am|i will be|i am going to be) ending it <b>", "n"),
    ("end_life", "intent", "(i am|i will be) ending it @TIME", "n"),
    ("end_life", "intent", "finally ~2 (went through with it|go through with it|going through with it)", "w"),
    ("end_life", "plan", "know|decided|(figured out) ~2 (how i am going to do it|how i will do it|when and how|how and when)", "n"),
    ("end_life", "plan", "planning|planned|plan ~1 my|your death|suicide|exit", "nc"),
    ("means_ready", "plan", "rope|noose ~6 beam|rafter|rafters|(ceiling fan)|(strong enough)", "c"),
    ("jump", "intent", "@INTENT @ADV? drive|crash|steer ~2 off|into ~2 @HIGH|@VEHICLE|tree|wall|river|cliff", "n"),
    ("jump", "intent", "@INTENT @ADV? jump <b>", "nc"),
    ("jump", "plan", "@HIGH ~8 not ~3 (coming home|coming back|going home)", ""),
    ("not_around", "intent", "not ~2 (plan on|planning on) ~1 (sticking around|being around|being here)", ""),
    ("not_around", "plan", "so|(so that) nobody|(no one) ~2 (has to|will have to|would have to) find me", ""),
    ("affairs", "intent", "at peace with ~1 (my decision|the decision|what i am going to do)", ""),
    ("formal", "intent", "(shall not|will not) see another winter|christmas|birthday|summer|year", ""),
    ("end_life", "plan", "(tonight is the night|today is the day|tonight the night) ~3 end it|(do it)|(kill myself)|go", "n"),
    ("end_life", "intent", "(i will be|i am going to be|i will be long) gone ~1 (before sunrise|before dawn|before morning|by sunrise|by dawn)", "nj"),
    ("end_life", "intent", "(really|finally) going to do it ~1 (this time|tonight|today)", "n"),
    ("overdose", "intent", "(@WANTD @TO|@INTENT) @ADV? overdose|od on ~1 my|the|all|these ~1 @PILLS", "n"),
    ("overdose", "plan", "(plan is to|going to|gonna|will) take|swallow ~1 everything|all ~4 @PILLS|cabinet", "n"),
    ("jump", "plan", "@HIGH ~6 (no one can see|nobody can see|nobody will see|no one will see)", "c"),
    ("drown", "plan", "walk|walking|swim|swimming ~2 into ~1 the? sea|ocean|lake|river|water ~3 @TIME", "n"),
    ("drown", "plan", "swim|swimming|walk|walking ~4 (not coming back|never coming back|and not come back|and never come back)", "n"),
    ("intent", "plan", "have a plan ~~3 (do not freak out|do not tell|do not worry)", ""),
    ("end_life", "intent", "@INTENT @ADV? go through with it", "n"),
    ("end_life", "intent", "do it this time ~~3 (i mean it|for real)", "n"),
    ("jump", "plan", "@INTENT ~4 @HIGH ~6 jump", "nc"),
    ("means_ready", "plan", "gun ~8 (going to use it|use it tonight|use it today|use it on myself)", "c"),
    ("jump", "plan", "(going to|go to|walk to|walking to) the train? tracks ~4 tonight|@TIME|at", "n"),
    ("means_ready", "plan", "razor|blades|blade ~6 (in the bath|in the bathtub|bath tonight)", "c"),
    ("drown", "plan", "lake|river|sea|ocean|water|bridge ~6 not ~3 (coming home|coming back)", ""),
    ("attempt", "plan", "found me ~1 before|(in time)|(before it worked)", "c"),
    ("attempt", "plan", "before i could ~1 (go through with it|do it|jump|finish)", ""),
    ("attempt", "plan", "(pulled me back|talked me down|grabbed me) ~2 from the edge|ledge|platform|railing", ""),
    ("attempt", "plan", "had the? @PILLS|knife|blade|rope ~3 (in my hand|in my hands) ~8 (put them back|could not do it|stopped)", ""),
    ("attempt", "plan", "(swallowed|took|taken) everything i had", ""),
    ("attempt", "plan", "(took|swallowed|taken) all my @PILLS ~8 (found me|not enough|still alive|did not work|woke up)", ""),
    ("attempt", "plan", "stood|standing|sat|sitting ~4 @HIGH ~6 (to see how it would feel|for an hour|for hours|for 3 hours|and then walked home)", ""),
    ("attempt", "intent", "almost did it ~2 (last night|again|yesterday|today)", ""),
    ("end_life", "intent", "(i am|i am actually|i am really) going through with it", ""),
    ("end_life", "intent", "before i go through with it", ""),
    ("intent", "intent", "(do not try to|do not|no one can|nobody can|nobody is going to|no one is going to) (talk me out of it) <b>", "j"),
    ("intent", "intent", "(nobody is going to|no one is going to|nobody can|no one can) stop me this time", ""),
    ("intent", "intent", "my mind is made up ~~3 (talk me out|stop me|try)", ""),
    ("intent", "plan", "(intend|plan|planning|going|want) to be dead|gone ~2 before|by", "n"),
    ("intent", "intent", "(tonight is the night|tonight the night) <b>", "w"),
    ("jump", "plan", "(going off|jump off|jumping off|go off) the top|roof|edge ~2 level|floor", "c"),
    ("jump", "plan", "(going off|jump off|jumping off|go off) the roof|edge <b>", "c"),
    ("means_ready", "plan", "know which ~1 beam|tree|bridge|overpass|spot|building", "c"),
    ("means_ready", "plan", "(use|using) ~2 revolver|gun|pistol ~4 while|when|tonight|@TIME", "c"),
    ("means_ready", "plan", "razor|blades|blade ~6 (running the bath|run the bath|run a bath)", "c"),
    ("overdose", "plan", "(to many|too many) @PILLS ~2 (on purpose|purposely|deliberately)", ""),
    ("intent", "plan", "have a plan ~3 (have the stuff|got the stuff|have everything)", ""),
    ("overdose", "plan", "take ~1 all my @PILLS ~~3 (all of them)", ""),
    ("intent", "intent", "not plan on waking up", ""),
    ("means_ready", "plan", "@INTENT ~1 use ~2 gun|revolver|pistol", "nc"),
    ("means_ready", "plan", "(i will be|i am going to be) on the tracks|(on the bridge)|(on the ledge)", "c"),
    ("intent", "plan", "(the note|a note) ~3 (the time|the place)", ""),
    ("means_ready", "plan", "use ~2 razor|blades|blade ~6 tonight|@TIME", ""),
    ("attempt", "plan", "talked me down <b>", ""),
    ("overdose", "plan", "took|swallowed num ~3 @PILLS ~2 (an hour ago|minutes ago|ago)", ""),
    ("not_around", "plan", "(after tonight) ~~4 not ~1 be here|around", "mj"),
    ("dead_by", "plan", "(i will|i am going to|i am gonna|i will probably|i might|i should) @ADV? be @ADV? dead by|before @TIME|morning|sunrise|dawn|midnight", "h"),
    ("dead_by", "plan", "(i will|i am going to|i am gonna|i will probably|i might|i should) @ADV? be @ADV? dead @TIME", "h"),
    ("plan_date", "plan", "i ~2 picked|chose|chosen|choose|(decided on) a|the date|day <b>", ""),
    ("timing", "plan", "(@INTENT|i am) @ADV? (do it|doing it|go through with it) ~1 tonight", "w"),
    ("timing", "plan", "(it is happening|it happens|it will happen|it ends|it all ends|taking them all|take them all|taking them|take them) ~2 @TIME", "w"),

    # ---- preparatory behaviour (C-SSRS behaviour) ----------------------------------------------------
    ("goodbye", "preparatory", "this is my? goodbye|farewell !screen|page|message|email|function|handler|component|button|text|modal|dialog|route|endpoint|party|lunch|card|gift|tour|note|post", "j"),
    ("goodbye", "preparatory", "goodbye|bye|farewell ~1 forever|(for good)|(for ever)|world|(cruel world)|everyone|everybody|all|guys|friends|(all of you)", "wj"),
    ("goodbye", "preparatory", "saying|say my? goodbyes|goodbye ~1 to ~2 everyone|everybody|people|(the people)|(the world)|(you all)|(all of you) !at|in|on|from|who|was|were", "j"),
    ("goodbye", "preparatory", "saying|said|say my? goodbyes|goodbye ~1 to ~2 family|friends|(loved ones)|all|mom|dad|mum|parents|sister|brother|kids|wife|husband|partner|girlfriend|boyfriend|son|daughter", "wj"),
    ("goodbye", "preparatory", "quietly|secretly|subtly ~2 goodbye|goodbyes", "j"),
    ("goodbye", "preparatory", "nice|good|great ~1 knowing you|u|all|everyone", "wj"),
    ("goodbye", "preparatory", "(thank you|thanks|thx) ~1 for everything|all|always|(being there)", "wj"),
    ("goodbye", "preparatory", "sorry ~1 for (everything|all of it|all this|being me)", "w"),
    ("goodbye", "preparatory", "sorry|(hate me)|(forgive me) ~2 for what (i am about to|i am going to|i will|i am gonna|i have to|comes next)", ""),
    ("goodbye", "preparatory", "not ~1 (hear from me|see me|hear me|talk to me) ~1 again|anymore|ever !until|till|til|soon|for", ""),
    ("goodbye", "preparatory", "last time ~3 (hear from me|see me|talk to me|hear me)", ""),
    ("goodbye", "preparatory", "(last message|last post|last text|last words|final message|final post|final words|last email|final email)", "w"),
    ("goodbye", "preparatory", "my (last words|final goodbye|last goodbye|last wishes|dying wish|final wishes)", ""),
    ("goodbye", "preparatory", "before @P3|i ~2 end it <b>", ""),
    ("note", "preparatory", "(goodbye letter|goodbye letters|goodbye note|goodbye notes|farewell note|farewell letter|final letter|goodbye video|farewell video|goodbye messages)", "j"),
    ("note", "preparatory", "(suicide note|suicide letter|suicide notes|suicide letters|suicide video)", "c"),
    ("note", "preparatory", "wrote|written|writing|left|leaving|finished|drafted|drafting|prepared ~2 note|notes|letter|letters !on|about|in|of|the|that|explaining|describing|with|under|for|to|in", "w"),
    ("note", "preparatory", "the|my|a note|notes|letter|letters is|are ~1 already|ready|done|written|finished", "w"),
    ("arrange", "preparatory", "giving|give|gave|given|gift|gifting ~1 away @MYPOSS ~1 @STUFF", "m"),
    ("arrange", "preparatory", "giving|give|gave|given|gift|gifting ~1 away (all|everything)", "m"),
    ("arrange", "preparatory", "giving|give|gave|given @MYPOSS ~2 stuff|things|belongings|possessions|pets|everything away", "m"),
    ("arrange", "preparatory", "giving|give|gave|given|gift|gifting ~1 away ~3 my|his|her|all", "wm"),
    ("arrange", "preparatory", "update|updated|updating|wrote|write|writing|made|make|making|finished|finalized|drafted|signed ~2 my|a|his|her will|testament", "w"),
    ("arrange", "preparatory", "cancel|cancelled|canceled|cancelling|canceling|close|closed|closing|delete|deleted|deleting|wipe|wiped|wiping|shut|shutting ~2 all|every|my|his|her|their ~2 accounts|account|subscriptions|(social media)|profiles|profile", "w"),
    ("arrange", "preparatory", "move|moved|moving|give|transfer|transferred|leave|leaving|send ~2 savings|money|(everything i own)|(my bank) ~2 to", "w"),
    ("arrange", "preparatory", "(take care of|look after|feed|find a home for|find homes for|rehome|good home for|new home for) ~2 my|the ~1 @PET", "w"),
    ("arrange", "preparatory", "@PET ~3 (good home|new home|new family|taken care of|looked after)", "w"),
    ("arrange", "preparatory", "if|when ~1 anything|something ~1 happens|happened|happen ~1 to me", "w"),
    ("arrange", "preparatory", "(when i am gone|after i am gone|once i am gone|after i die|when i die|after i am dead|when i am dead|once i die|after my death|after i leave this world)", "w"),
    ("arrange", "preparatory", "(affairs in order|my affairs|funeral arrangements|plan my funeral|planning my funeral|my funeral|my obituary|my eulogy)", "w"),
    ("note", "preparatory", "(whoever finds this|to whoever finds this|if you are reading this|if you re reading this|by the time you read this|when you read this)", "w"),
    ("note", "preparatory", "goodbye|bye <b>", "wj"),
    ("note", "preparatory", "(i am sorry|sorry for everything|i am so sorry) <b>", "w"),
    ("note", "preparatory", "wrote|written|writing|left|leaving|finished ~2 note|notes|letter|letters|(a letter)|(a note) ~1 for|to ~2 my|everyone|family|mom|dad|parents|wife|husband|kids|children|sister|brother|you", "w"),
    ("note", "preparatory", "(planned it all out|planned everything|planned it out|have it all planned|got it all planned|worked out the details|figured out how|set the date|picked a date|picked the date|chosen the date)", "w"),
    ("note", "preparatory", "this is my last|final", "w"),
    ("note", "preparatory", "(tonight is the night|today is the day|this is the night|tonight is the day)", "w"),
    ("goodbye", "preparatory", "log|logging|logged off ~1 permanently|forever|(for good)", "wj"),
    ("means_ready", "preparatory", "@PILLS|rope|noose|razor|blades|gun ~3 (counted out)|(in front of me)|(next to me)|(lined up)|(laid out)", "c"),
    ("means_ready", "preparatory", "(i have|i have got|i got|got) the|my ~1 @PILLS|rope|noose|razor|blades|gun ~1 ready <b>", "c"),
    ("means_ready", "preparatory", "(got|have|bought|tied) the|a|my ~1 rope|noose ~~3 tonight|@TIME <b>", "c"),
    ("note", "preparatory", "my|the note ~4 ready <b>", "c"),
    ("means_ready", "preparatory", "sitting|standing|lying|laying ~5 with the|my @PILLS|rope|noose|knife|gun|blade|razor|blades", "c"),
    ("means_ready", "preparatory", "saving|saved|collecting|collected|hoarding @ADV? my|the? @PILLS", "m"),
    ("means_ready", "preparatory", "charcoal ~3 tape|sealed|seal", "c"),
    ("means_ready", "preparatory", "blades|razor ~3 bathtub|bath|tub", "c"),
    ("means_ready", "preparatory", "(have|got) everything ready", "w"),
    ("means_ready", "preparatory", "bought|buy|buying|got a gun|pistol|rope|noose|charcoal", "w"),
    ("not_around", "preparatory", "(after|when|once) i am dead", "c"),
    ("not_around", "preparatory", "(after|when|once) i am gone|(not here)|(not around) <b>", "w"),
    ("not_around", "preparatory", "inconvenience ~2 my passing|death", ""),
    ("not_around", "preparatory", "taken care of ~2 when|after|once i am ~1 (not here|gone|dead)", ""),
    ("not_around", "preparatory", "(going to|will|gonna) find me ~2 tomorrow|@TIME|dead", "w"),
    ("not_around", "preparatory", "probably|definitely my last birthday|christmas|one", "w"),
    ("goodbye", "preparatory", "last time ~2 (we will|we are going to|we will ever|i will) talk|speak", ""),
    ("goodbye", "preparatory", "(knowing|know|knew) it was goodbye", ""),
    ("goodbye", "preparatory", "(tell|told|telling) ~4 i love them ~~4 (one last time|for the last time)", ""),
    ("note", "preparatory", "wrote|written|left|write|leaving ~2 letters|letter|note|notes ~~12 (for after|find it|will find|under my pillow|in my jacket|in my drawer|in the drawer|for when)", "c"),
    ("affairs", "preparatory", "my affairs ~2 in order", ""),
    ("affairs", "preparatory", "putting|put|getting|got|settling ~1 my? affairs ~1 in order", ""),
    ("note", "preparatory", "(sorry to|for) whoever finds", ""),
    ("affairs", "preparatory", "(everything is|everything) in order now", "w"),
    ("not_around", "preparatory", "before i go <b>", "w"),
    ("means_ready", "preparatory", "counted|counting ~2 @PILLS ~~6 enough", ""),
    ("goodbye", "preparatory", "(this will be|this is) my last message|post|text <b>", "j"),
    ("means_ready", "preparatory", "the letter ~2 the pills", ""),
    ("means_ready", "preparatory", "gun ~3 not for protection", ""),
    ("not_around", "preparatory", "(who gets what|who gets my) ~3 (when|after) i ~1 (am gone|die|am dead)", ""),
    ("goodbye", "preparatory", "(drafted|wrote|written) ~2 goodbye message|note|letter|post", "j"),
    ("goodbye", "preparatory", "(said|says|say) goodbye to everyone ~2 (i care about|i love)", ""),
    ("means_ready", "preparatory", "everything is set ~2 for", "w"),
    ("means_ready", "preparatory", "rope ~~4 (know how to tie it)", ""),
    ("note", "preparatory", "wrote|written ~2 notes|letters|note|letter ~~8 (desk drawer|in my desk)", "c"),
    ("affairs", "preparatory", "(suicide exclusion|suicide clause)", "c"),
    ("affairs", "preparatory", "(nobody|no one) gets stuck with it|them ~1 after", ""),
    ("affairs", "preparatory", "(planned|planning|plan) ~2 my funeral", "ch"),
    ("not_around", "preparatory", "not need it|them|her|him where i am going", ""),
    ("not_around", "preparatory", "not ~1 (be needing|need) her|him|them|it back", "w"),
    ("not_around", "preparatory", "(need|have) the money ~3 after i am gone", ""),
    ("goodbye", "preparatory", "(i love you all|love you all) ~3 (sorry for everything|goodbye)", ""),
    ("goodbye", "preparatory", "make sure ~3 knows it was not ~1 her|his|their|your fault", ""),
    ("goodbye", "preparatory", "remember me ~1 ok|okay|please <b>", "w"),
    ("not_around", "preparatory", "not be ~1 on here|online|around after tonight|@TIME", "w"),
    ("goodbye", "preparatory", "sorry ~4 not see ~2 graduate|(grow up)|(get married)", ""),
    ("means_ready", "preparatory", "@PILLS ~5 counting them", ""),
    ("goodbye", "preparatory", "not your fault ~2 when|after|once i am gone|dead", ""),
    ("note", "preparatory", "wrote|written ~2 letters|notes ~~4 (just in case)", ""),
    ("affairs", "preparatory", "(passwords|life insurance) ~6 envelope", ""),
    ("affairs", "preparatory", "gave|giving away ~3 (most important things|my things|my stuff|my belongings)", "m"),
    ("overdose", "preparatory", "@PILLS ~3 from ~3 (different pharmacies|pharmacies)", ""),
    ("means_ready", "preparatory", "@PILLS|rope|noose|gun|blade|razor|pistol|bullets ~3 ready|(lined up)|(laid out)|(counted out)|(in front of me)|(next to me)|(in my hand)", "w"),
    ("means_ready", "preparatory", "(got|have|had|getting) everything|(it all) ~1 ready|prepared|planned|(in place)|(sorted out)|(in order)", "w"),
    ("means_ready", "preparatory", "(have|got) everything i need <b>", "w"),
    ("goodbye", "preparatory", "(by the time you read this|if you are reading this|when you read this|whoever finds this|when you find this|by the time you see this|if you see this) ~4 gone|dead|(not alive)|(not here)|(no longer)|(not be)", ""),
    ("goodbye", "preparatory", "i ~2 not ~2 be around|here ~1 (much longer|for much longer|for long|anymore|to see it|to see them|to see you|to see that|after this) <b>", "j"),
    ("goodbye", "preparatory", "this|it is ~1 the end for|(of the road for)|(of the line for) me <b>", "j"),
    ("goodbye", "preparatory", "saying|said|say|(saying all) my goodbyes <b>", "j"),
    ("goodbye", "preparatory", "not ~2 (have to|need to|gotta|got to) worry about me ~1 anymore|(much longer)|again|ever", "j"),
    ("goodbye", "preparatory", "this is my last|final message|post|text|words|email|letter !today|tonight|before|for|of|in|on|until|till|here|about|regarding|re|from|this", "j"),
    ("arrange", "preparatory", "gave|giving|give|given|left|leaving @MYPOSS ~1 @PET|belongings|possessions|guitar|clothes|collection|jewelry|savings|valuables to", "wm"),

    # ---- self-harm ----------------------------------------------------------------------------------------
    ("self_harm", "self_harm", "hurt|hurting|harm|harming|punish|punishing|injure|injuring @SELF !laughing|playing|lifting|at|while|during|by|falling|on|in", "na"),
    ("self_harm", "self_harm", "cut|cutting|slice|slicing|slash|slashing|carve|carving @SELF !some|slack|off|a|an|loose|free|short|out|down|back|laughing|shaving|on|while|cooking|by|in|into|open|up|with", "na"),
    ("self_harm", "self_harm", "cut|cutting|slit|slitting|slice|slicing|slash|slashing|carve|carving|burn|burning|bleed|bleeding|bruise|(cut open) ~1 my|his|her|their|your wrists|wrist|arms|arm|thighs|thigh|legs|skin|veins|vein|throat|stomach !on|open|while|by|when|accidentally|with|off|a", "a"),
    ("self_harm", "self_harm", "burn|burning|starve|starving|bruise|bruising|scar|scarring @SELF !out|up|laughing|on|with|in", "na"),
    ("self_harm", "self_harm", "relapse|relapsed|relapsing|relapses ~~3 selfharm|sh|cutting|cut|harming", ""),
    ("self_harm", "self_harm", "urge|urges|craving|cravings ~1 @TO? selfharm|sh", ""),
    ("self_harm", "self_harm", "selfharm again|scars|scar|urges|urge|relapse|tonight|wounds|cuts|blades|blade|kit", ""),
    ("self_harm", "self_harm", "sh scars|urges|relapse|wounds|cuts|blades", ""),
    ("self_harm", "self_harm", "i|my|me ~2 selfharm", "nc"),
    ("self_harm", "self_harm", "(@WANTD @TO|@INTENT) @ADV? selfharm", "n"),
    ("self_harm", "self_harm", "(clean from|clean of|stopped|quit) ~1 selfharm|sh|cutting ~6 relapsed|broke|relapse|again", ""),
    ("self_harm", "self_harm", "razor|razors|blade|blades ~3 (on my|my skin|my arm|my wrist|my thigh|to my)", ""),
    ("self_hate", "warning_sign", "hate|loathe|despise @SELF|(my life)|(being alive)|(my existence)", "w"),
    ("self_hate", "warning_sign", "(i am|feel|feel so|feel like) ~2 worthless|useless|hopeless|(a waste of space)|(a waste of oxygen)|(a mistake)|trash|nothing", "wn"),
    ("self_harm", "self_harm", "hurt|hurting|harm|harming|cut|cutting|burn|burning|burned|burnt|punish|punishing|hit|hitting|scratch|scratching @SELF ~2 (on purpose|deliberately|intentionally|with a lighter|with a blade|with a razor|with a knife|to feel something)", ""),
    ("self_harm", "self_harm", "hurt|harmed|cut|burned|burnt @SELF again", "n"),
    ("self_harm", "self_harm", "(been|started|keep|kept|back to) cutting|burning again", "n"),
    ("self_harm", "self_harm", "(been|started|keep|kept|back to) cutting|burning <b>", "n"),
    ("self_harm", "self_harm", "punch|punching|hit|hitting|scratch|scratching|bite|biting|pick|picking ~4 until|till ~3 bleed|bleeds|bleeding|bled|broke|break|cracked|split|bruise|bruises|bruised", "na"),
    ("self_harm", "self_harm", "punched|scratched|scratch|scratching ~4 until|till ~3 bleed|bleeds|bled|broke|split", "na"),
    ("self_harm", "self_harm", "@BODY ~4 (covered in|full of) ~1 fresh? cuts|scars|burns", "na"),
    ("self_harm", "self_harm", "fresh|new cuts|burns ~4 (want more|again|on my)", "na"),
    ("self_harm", "self_harm", "hiding|hide|cover|covering ~2 my scars|cuts ~6 (long sleeves|again|did it again)", "a"),
    ("self_harm", "self_harm", "my wrists|arms|thighs ~1 are bleeding", "a"),
    ("self_harm", "self_harm", "only thing that ~1 helps ~3 razor|blade|blades|cutting|(hurting myself)", ""),
    ("means_ready", "self_harm", "holding|hold|had|pressing|pressed a|the|my? knife|blade|razor ~2 to|against my? wrist|wrists|throat|arm|arms|skin", "c"),
    ("self_harm", "self_harm", "i ~1 cut|cutting|burned|burnt again", "na"),
    ("self_harm", "self_harm", "i cut ~1 (last night|again|deeper)", "na"),
    ("self_harm", "self_harm", "cut|cuts ~3 deeper", "na"),
    ("self_harm", "self_harm", "i ~2 hitting|punching|bruising|bruise|punch|slap|slapping|bite|biting ~1 myself", "nac"),
    ("self_harm", "self_harm", "bang|banging|hit|hitting my head ~3 (against the wall|on the wall) ~2 until|till", "a"),
    ("self_harm", "self_harm", "bang|banging|hit|hitting my head ~3 (against the wall|on the wall) ~6 (only thing|makes the noise stop|on purpose|helps)", "a"),
    ("self_harm", "self_harm", "(punishing|punish) myself ~3 (not eating|starving)", ""),
    ("self_harm", "self_harm", "starving myself", "n"),
    ("self_harm", "self_harm", "on my @BODY ~1 (on purpose|deliberately|intentionally)", "a"),
    ("self_harm", "self_harm", "blade|razor ~3 (only friend|only thing)", ""),
    ("method_how", "self_harm", "i drank bleach|antifreeze", ""),
    ("self_harm", "self_harm", "(hot iron|lighter|hot pan|cigarette|hot metal|iron) ~3 against|on|to my @BODY|skin", "a"),
    ("self_harm", "self_harm", "deserve ~1 (to starve|pain|to hurt|to suffer|to bleed)", "n"),
    ("self_harm", "self_harm", "not deserve ~1 food|(to eat)", ""),
    ("self_harm", "self_harm", "cut|cutting again ~3 (felt good|felt better|it helps|helped)", ""),
    ("self_harm", "self_harm", "cut ~1 deep|deeper ~2 (this time|tonight)", "na"),
    ("self_harm", "self_harm", "carved|carve|carving ~4 into my @BODY", "a"),
    ("self_harm", "self_harm", "sharpener blade|blades", ""),
    ("self_harm", "self_harm", "long sleeves ~4 (in summer|so no one sees|so nobody sees|to hide)", ""),
    ("self_harm", "self_harm", "cutting|(hurting myself)|burning ~2 makes me feel", ""),
    ("self_harm", "self_harm", "burned|burnt|cut|hit ~1 my @BODY ~4 (on purpose|deliberately|intentionally)", "a"),
    ("self_harm", "self_harm", "make|made @SELF bleed|hurt", "n"),
    ("self_harm", "self_harm", "hide|hiding|cover|covering ~2 cuts|(self harm scars)|(selfharm scars)", ""),
    ("self_harm", "self_harm", "num|fresh|new cuts on my @BODY", "a"),
    ("self_harm", "self_harm", "keep a blade|razor ~4 (just in case)|(for when it gets bad)", ""),
    ("self_harm", "self_harm", "razor|blade|blades ~~6 (said i would stop|promised i would stop|promised to stop)", ""),
    ("self_harm", "self_harm", "burn|burning|burned|burnt @SELF ~4 (on purpose|deliberately|intentionally)", "a"),
    ("self_harm", "self_harm", "cutting|burning|(hurting myself) ~2 (only thing that helps|only thing that works)", ""),
    ("self_harm", "self_harm", "want|need the razor|blade|blades back", ""),
    ("self_harm", "self_harm", "@BODY ~3 (look like a barcode|like a barcode)", ""),
    ("self_harm", "self_harm", "reopened ~2 cuts|wounds|scars", ""),
    ("self_harm", "self_harm", "found my blades|razors", ""),
    ("self_harm", "self_harm", "wanted it to be deeper", ""),
    ("self_harm", "self_harm", "bleeding ~4 (did it to myself|did this to myself)", ""),
    ("self_harm", "self_harm", "burn|burning|burned|burnt|brand|branding @SELF ~1 with ~1 cigarettes|cigarette|lighter|lighters|matches|(a cigarette)|(a lighter)|(hot metal)|(a hot knife)", ""),
    ("self_harm", "self_harm", "i ~2 @WANTD @TO @ADV? cut|bleed <b>", "n"),
    ("self_harm", "self_harm", "i ~2 @WANTD @TO @ADV? cut|bleed ~1 (to feel something|to feel anything|to feel|again|tonight)", "n"),
    ("self_harm", "self_harm", "i ~2 @WANTD @TO @ADV? cut|bleed ~1 (so bad|so badly|again|tonight|deeper|deep)", "n"),
    ("self_harm", "self_harm", "urge|urges|craving|cravings @TO @ADV? cut|bleed !the|a|an|it|this|that|costs|corners|down|back|out|off|up|some|from|ties|class|school|loose|in|scope|features|budget|release|branch|tag|over", ""),
    ("self_harm", "self_harm", "cut|cutting|burned|burnt|burn|burning|hit|hitting|hurt|hurting|scratched|scratching|punched|punching|bit|biting ~1 my|own ~1 @BODY ~1 (on purpose|deliberately|intentionally|to feel something|to feel pain|to punish myself)", ""),
    ("self_harm", "self_harm", "cut|cutting|burn|burning|hit|hitting|scratch|scratching|punch|punching|bite|biting|pick|picking ~1 my ~1 @BODY ~3 until|till|til ~2 bleed|bleeds|bled|bleeding|bruise|bruises|bruised|scar|scars|(draw blood)", ""),
    ("self_harm", "self_harm", "(feel pain|feel something|feel anything|punish myself|cope|numb|numbness) ~3 (i cut|i burn|i hurt myself|cutting|i bleed)", ""),
    ("self_harm", "self_harm", "@SELF ~3 until|till|til ~2 bleed|bleeds|bleeding|bruise|bruises|bruised|scar|scars|(draw blood)", ""),

    # ---- indirect warning signs --------------------------------------------------------------------------
    ("burden", "warning_sign", "(i am|i feel|feel like|feeling like|being|been|i was|just) ~3 burden|burdens|(waste of space)|(waste of oxygen) !of", "n"),
    ("burden", "warning_sign", "(burden to|burden on|burden for) ~1 everyone|everybody|my|others|people|you", "n"),
    ("burden", "warning_sign", "(better off)|better|happier|easier|relieved|fine|okay|ok|lighter|glad|grateful|freer ~5 without me !touching|there|around|in|on|at|having|doing|being|getting|for|this|today|tomorrow|here|interfering|involved", ""),
    ("burden", "warning_sign", "would|will|d|be ~5 better|happier|easier|relieved|fine|okay|ok|lighter|glad|safer|freer ~3 if i ~2 @GONE", ""),
    ("burden", "warning_sign", "nobody|everyone|everybody|people|world|they ~3 notice|care|(miss me)|(be sad)|cry ~4 if|when i ~2 @GONE|disappear|disappeared|died|die|gone", ""),
    ("burden", "warning_sign", "nobody ~2 would|will|(is going to) ~2 (miss me|notice i am gone|notice that i am gone|care that i am gone)", ""),
    ("burden", "warning_sign", "nobody ~2 would|will|even|cares|care ~1 care|notice|miss", "w"),
    ("no_reason", "warning_sign", "no|(not any)|(not a single)|zero ~2 reason|reasons|point|purpose ~3 @TO|in|for ~1 live|living|(keep living)|(go on)|(going on)|(stay alive)|(staying alive)|(be alive)|(being alive)|(wake up)|(waking up)|(carry on living)|(continue living)", ""),
    ("no_reason", "warning_sign", "nothing|nobody ~2 (live for|worth living for|stay alive for|keep me alive|keeping me alive|keeping me here|holding me here)", ""),
    ("no_reason", "warning_sign", "(what is|where is) ~2 the point ~2 of|in ~1 living|life|(going on)|(being alive)|existing|anything|(it all)|(staying alive)", ""),
    ("no_reason", "warning_sign", "(what is) ~2 (the point|point anymore|the use)", "w"),
    ("no_reason", "warning_sign", "life|living|existence|existing ~2 not|never|(no longer) ~1 worth ~2 living|it|anything|(the pain)|(the effort)", ""),
    ("no_reason", "warning_sign", "(not worth living|worthless life|pointless life|life is pointless|life is meaningless|life has no meaning)", ""),
    ("no_reason", "warning_sign", "lost|losing|no|zero|any|without ~2 will|desire|reason|power|strength|energy|motivation ~2 (@TO live|@TO go on|@TO keep living|@TO stay alive|@TO keep going)", ""),
    ("tired_life", "warning_sign", "tired|sick|exhausted|weary|done of|with ~3 living !out|paycheck|with|on|off|under|at|near|next|here|there|together|abroad|downtown|in|by|from|a|the|room|space|costs|expenses|wage|wages", "n"),
    ("tired_life", "warning_sign", "tired|sick|exhausted|weary|done of|with ~3 (living in pain)|(living in fear)|(living in misery)|(being alive)|existing|life|(my life)|(fighting to stay alive)|(trying to stay alive)|(staying alive)|(waking up)|breathing", "n"),
    ("tired_life", "warning_sign", "(done with life|done with living|done with everything|done for good|checking out for good|done fighting|tired of fighting|can not keep fighting)", "w"),
    ("tired_life", "warning_sign", "(give up on life|giving up on life|gave up on life|given up on life|quit life|quitting life)", "n"),
    ("tired_life", "warning_sign", "(can not|could not|not able to) ~1 (do this|go on|take it|take this|keep going|handle this|handle it|live like this|do it) ~1 anymore|longer|more", "w"),
    ("tired_life", "warning_sign", "(can not go on|can not take it|can not keep going|can not live like this|can not cope)", "w"),
    ("tired_life", "warning_sign", "(hopeless|worthless|empty inside|dead inside|no way out|no hope|no future|unbearable|pain is too much|too much pain)", "w"),
    ("tired_life", "warning_sign", "feel|feeling|felt ~2 (like a ghost|like i am already dead|like i am dead|already dead|invisible)", "w"),
    ("tired_life", "warning_sign", "(life is over|my life is over|it is over for me|nothing left)", "w"),
    ("disappear", "warning_sign", "@WANTD @TO @ADV? disappear|vanish|escape|(run away)|(not be here)|(fade away)", "w"),
    ("history", "warning_sign", "i ~2 attempted|(tried suicide)|(attempted suicide)", "w"),
    ("history", "warning_sign", "feeling|feel|felt ~3 exactly|same|(the way)|(like i did)|(like before)|(like last time)|(like then) ~3 before|again|did|(last time)", "w"),
    ("calm", "warning_sign", "not ~1 worry about me", "w"),
    ("calm", "warning_sign", "feel|feeling|felt|am|so|finally ~2 calm|peaceful|(at peace)|serene|settled ~2 (about it|about my decision|about this)|now|finally", "w"),
    ("calm", "warning_sign", "(i am fine now|i am okay now|everything will be fine soon|it will all be over|it will be over soon|all be over soon)", "w"),
    ("unreachable", "third_person", "not|stopped|stop ~1 answering|responding|(picking up)|replying ~3 phone|calls|texts|messages|door", "w"),
    ("unreachable", "third_person", "nobody|(can not)|(could not)|(unable to) ~2 reach|contact|find|(get hold of)|(get ahold of) ~1 him|her|them", "w"),
    ("unreachable", "third_person", "left|leaving|wrote|posted|texted|sent ~2 a|an|the? note|letter|goodbye|farewell !message|messages|screen|page|email|emails|template|function|handler|event|packet|frame|on|about|for|in", "w"),
    ("unreachable", "third_person", "not|stopped ~1 answering|responding|replying|(picking up) <b>", "w"),
    ("unreachable", "third_person", "(went silent|gone silent)", "w"),
    ("unreachable", "third_person", "@P3 ~3 (logged off|disappeared|vanished|missing|went missing|gone missing)", "w"),
    ("reckless", "warning_sign", "driving|drove|drive ~4 fast|recklessly|drunk ~3 (on purpose)|hoping|deliberately|(want to crash)", "w"),
    ("not_safe", "warning_sign", "(i am|i feel|i do not feel|feeling|i am feeling) @ADV? not? safe ~1 (right now|tonight|around myself|with myself|alone|by myself|being alone|with my thoughts)", ""),
    ("not_safe", "warning_sign", "(i am|i feel|feeling|i am feeling) @ADV? not safe <b>", ""),
    ("can_not_go_on", "warning_sign", "(can not|could not) ~1 (go on living|keep living|go on like this|live like this|live with this|keep going like this) ~1 anymore?", "n"),
    ("history", "warning_sign", "i ~1 cut|burned|relapsed again", "w"),
    ("want_over", "warning_sign", "@WANTD ~1 pain ~1 @TO ~1 stop|end|(be over)", "w"),
    ("tired_life", "warning_sign", "i am done <b>", "w"),
    ("tired_life", "warning_sign", "nothing matters|(nothing matters anymore)|(what is the point anymore)", "w"),
    ("tired_life", "warning_sign", "can not do this <b>", "w"),
    ("burden", "warning_sign", "better off ~5 (than with me)|(than having me)|(than with me around)", ""),
    ("burden", "warning_sign", "better place|world ~1 without me", ""),
    ("burden", "warning_sign", "everyone|everybody|(my family)|(the world) ~1 would|will ~1 be better off <b>", "w"),
    ("burden", "warning_sign", "(doing everyone a favor|doing everybody a favor|do everyone a favor|do everybody a favor) ~2 dying|(by dying)|(if i died)|(if i was gone)|(if i were gone)|(by disappearing)", ""),
    ("burden", "warning_sign", "i ~3 not ~3 be a problem|burden ~2 (much longer|for long|for much longer)", ""),
    ("burden", "warning_sign", "stop|stopped|(stop being)|(stopped being) ~2 a problem|burden ~3 permanently|(for good)|forever", ""),
    ("burden", "warning_sign", "just|only ~2 taking up space", "w"),
    ("burden", "warning_sign", "if i ~1 died|(was gone)|(were gone)|(was dead)|(were dead) ~4 (not matter|would not matter|nobody would care|no one would care|nobody would notice|no one would notice)", ""),
    ("no_future", "warning_sign", "not|stopped ~2 see|seeing ~1 (a way forward|a future|any future|any way forward|a way out) ~1 anymore|(at all)|(for myself)", ""),
    ("no_future", "warning_sign", "nothing left ~1 (for me here) <b>", ""),
    ("want_out", "warning_sign", "i ~2 want|wanna|need out <b>", "n"),
    ("history", "warning_sign", "(the|my|those|suicidal) thoughts|urges ~1 are|came|come|have ~1 back|returned|(coming back)", "w"),
    ("not_around", "warning_sign", "if i die|died ~3 (will you miss me|would you miss me|would anyone miss me|would anyone care|will anyone care)", ""),
    ("wish_dead", "warning_sign", "dying|death ~1 (does not scare me|do not scare me|no longer scares me)", ""),
    ("wish_dead", "warning_sign", "envy|jealous ~2 (people who died|the dead|dead people|people who get to die|people who die)", ""),
    ("wish_dead", "warning_sign", "being alive ~3 chore|punishment|prison|torture", ""),
    ("no_future", "warning_sign", "no future ~1 (for me|left for me)", ""),
    ("no_future", "warning_sign", "(no version of the future|no future) ~4 (i am okay|i am ok|i am alive|i make it)", ""),
    ("no_future", "warning_sign", "too much|painful|hard ~1 (to be alive|to keep living)", ""),
    ("no_future", "warning_sign", "(can not|could not) ~2 (survive|make it through) another day|night", ""),
    ("no_future", "warning_sign", "given up ~~4 (on me|on myself|on life|on living)", ""),
    ("burden", "warning_sign", "world|everyone|nobody ~2 (does not need me|do not need me|would not need me|will not need me)", ""),
    ("burden", "warning_sign", "save|saved ~4 money|time ~4 if i ~1 (died|was dead|were dead|was gone|just died)", ""),
    ("method_how", "warning_sign", "(life insurance) ~8 (after i am gone|suicide|looks like an accident|if i die)", "w"),
    ("intent", "warning_sign", "(okay|ok|alright) to let go", "w"),
    ("wish_dead", "warning_sign", "(would it be so bad|would anyone care|would it matter|would anyone notice) ~2 if i ~2 (was not here|were not here|was gone|were gone|died|disappeared)", ""),
    ("no_future", "warning_sign", "(staying alive|being alive|living) is ~1 pointless", ""),
    ("no_future", "warning_sign", "not see myself ~1 (making it|alive|here|around) ~2 (next year|much longer|another year|@TIME)", ""),
    ("no_future", "warning_sign", "why i am ~2 still here|alive", ""),
    ("burden", "warning_sign", "(not|never) trouble anyone ~1 further|again|anymore", ""),
    ("burden", "warning_sign", "(by tomorrow|soon|after tonight|after this weekend) ~3 not ~1 be a problem|burden ~2 (for anyone|to anyone|anymore)", ""),
    ("no_future", "warning_sign", "lost all hope <b>", "h"),
    ("no_future", "warning_sign", "(no hope for me)|(completely hopeless)|(totally hopeless)|(so hopeless)", ""),
    ("no_future", "warning_sign", "i have nothing left <b>", ""),
    ("no_future", "warning_sign", "not see ~1 (any way out|a way out) <b>", ""),
    ("no_future", "warning_sign", "only one way out|exit <b>", ""),
    ("no_future", "warning_sign", "(i feel|i am|feel|feeling|i am so) trapped ~6 (no way out|can not escape|no escape)", ""),
    ("burden", "warning_sign", "i am ~1 worthless", "w"),
    ("burden", "warning_sign", "better|happier|safer ~3 without me ~1 (around|in it|in their lives|in the picture) <b>", ""),
    ("attempt", "warning_sign", "survived|after|since|before my ~2 attempt|attempts", "c"),
    ("attempt", "warning_sign", "stood|standing on|at the? edge ~6 (for an hour|for hours|to see how it would feel|and then walked home|and walked home|could not do it)", ""),
    ("intent", "warning_sign", "(going to|gonna) act on it", "w"),
    ("means_ready", "warning_sign", "gun|pistol|revolver|rope|noose|@PILLS|bridge|@VEHICLE|tracks ~~12 (keep thinking about it|think about it a lot|thinking about using it)", "c"),
    ("method_how", "warning_sign", "(asking for real|asking for myself|it is for me honestly)", "w"),
    ("self_harm", "warning_sign", "relapsed ~4 (days clean|weeks clean|months clean)", "w"),
    ("no_future", "warning_sign", "what is the point of ~1 (any of it|anything|living|life|being alive)", "w"),
    ("no_future", "warning_sign", "no point ~1 (dragging it out|going on|in going on|in living|in being alive)", ""),
    ("no_future", "warning_sign", "not see myself ~1 being alive ~2 at|(next year)|(much longer)", ""),
    ("burden", "warning_sign", "(by being alive|just by being alive|by existing|just by existing)", ""),
    ("burden", "warning_sign", "(better life|better off) ~5 (insurance money|life insurance)", ""),
    ("no_future", "warning_sign", "(can not take it|can not do this|can not go on) anymore ~~3 (i mean it|this time)", ""),
    ("no_future", "warning_sign", "i can not go on <b>", ""),
    ("no_future", "warning_sign", "(end of my rope) <b>", "w"),
    ("no_future", "warning_sign", "hurts ~2 to be alive", ""),
    ("slang", "warning_sign", "(go dark|going dark) permanently|forever", "w"),
    ("attempt", "warning_sign", "i ~2 (attempted suicide|tried to kill myself|tried suicide)", ""),
    ("attempt", "warning_sign", "suicide attempt|attempts", "c"),
    ("attempt", "warning_sign", "my last|first|second|third|2nd|3rd attempt", ""),
    ("no_future", "warning_sign", "no way out ~4 trapped", ""),
    ("no_future", "warning_sign", "(can not take|can not bear|can not handle) ~1 this? pain anymore", ""),
    ("no_future", "warning_sign", "want ~1 it ~1 (over|to be over) <b>", "w"),
    ("slang", "warning_sign", "join|(be with) my? grandpa|grandma ~2 soon", "w"),
    ("jump", "warning_sign", "railing ~3 high|(how high)", "w"),
    ("no_reason", "warning_sign", "not ~2 see|find|have|got ~1 a|any ~1 reason|point ~2 @TO|in ~1 (keep going|go on|going on|live|living|stay alive|be here|be alive|keep living|exist|wake up|get up) <b>", ""),
    ("no_reason", "warning_sign", "not ~2 see|find|have|got ~1 a|any ~1 reason|point ~2 @TO|in ~1 (keep going|go on|going on|live|living|stay alive|be here|be alive|keep living|exist|wake up|get up) anymore", ""),
    ("not_safe", "warning_sign", "not|(can not)|(could not) trust myself ~2 alone|tonight|(right now)|anymore|around|(by myself)|(not to)|(with pills)|(with my meds)|(with a knife)|(with a blade)", ""),

    # ---- third-person reports --------------------------------------------------------------------------
    ("third_person", "third_person", "@ANYKILL @SELF3 !laughing", "nc"),
    ("third_person", "third_person", "end|ending|take|taking|finish|finishing @POSS3 own? life|lives !insurance|savings|story|expectancy|cycle|back|in|into|policy|support|as|to", "nc"),
    ("third_person", "third_person", "hurt|hurting|harm|harming|cut|cutting|starve|starving|burn|burning @SELF3 !laughing|playing|at|while|by|in|off|out|some|a|on|with", "nca"),
    ("third_person", "third_person", f"@P3 ~3 wants|want|wanted|wanting|wishes|wished ~1 @TO @ADV? die|(be dead)|(end it)|(not live)|(not be alive)|(not exist)|(disappear forever) {_P3_NOT}", "nc"),
    ("third_person", "third_person", "@P3 ~3 suicidal|selfharm|selfharming|overdosed|overdosing|(attempted suicide)", "nc"),
    ("third_person", "third_person", "@P3 ~4 talking|talks|talked|texted|posted|said|says|saying|threatening|threatened|joking|jokes ~2 about|of ~2 suicide|dying|(ending it)|(ending her life)|(ending his life)|(ending their life)|(ending things)|(ending everything) !prevention|awareness|rates|research|squad", "nc"),
    ("third_person", "third_person", "@P3 ~2 will|(is going to)|(are going to)|(wants to)|(plans to)|(plan to)|(about to)|(going to) ~1 end it <b>", "nc"),
    ("third_person", "third_person", "@P3 ~2 will|(is going to)|(are going to)|(wants to)|(plans to)|(plan to)|(about to)|(going to) ~1 end it ~1 all|@TIME", "nc"),
    ("third_person", "third_person", "@P3 ~3 has|have|got ~2 pills|rope|noose|gun|(a plan)|(the means)", "w"),
    ("third_person", "third_person", "@P3 ~3 searched|googled|(looked up)|researching|searching|asked|asking ~3 (how to|ways to|how many|painless|lethal|suicide|overdose)", "w"),
    ("jump", "third_person", "@P3 ~4 (@INTENT|threatening to|threatened to|wants to) jump|leap ~1 @TIME|off|from", "n"),
    ("jump", "third_person", "@P3 ~4 (@INTENT|threatening to|threatened to|wants to) jump|leap <b>", "n"),
    ("third_person", "third_person", "@P3 ~2 (plans to|planning to|is going to|wants to) kill|end ~1 @SELF3|(her life)|(his life)|(their life)", "c"),
    ("third_person", "third_person", "@P3 ~4 (says|said|keeps saying|tells me|told me|thinks|feels|texted|wrote|writes) ~5 (better off without him|better off without her|better off without them|better off dead|a burden|no reason to live|not want to live|wants to die|want to die) !of", "n"),

    # ---- Spanish and a few other languages ---------------------------------------------------------------
    ("es", "ideation", "(quiero|quisiera|deseo|necesito|queria|quise|pienso|pensando en|ganas de|voy a|vamos a|me quiero|me voy a) ~1 (morir|morirme|matarme|suicidarme|quitarme la vida|desaparecer para siempre|acabar con todo|acabar con mi vida|terminar con mi vida|dejar de vivir|no despertar) !de", "n"),
    ("es", "ideation", "(me quiero|me voy a|me pienso|me gustaria|me tengo que) ~1 morir|matar|suicidar|(quitar la vida) !de", "n"),
    ("es", "ideation", "(quitarme la vida|suicidarme|me voy a suicidar|me suicido|acabar con mi vida|terminar con mi vida)", "n"),
    ("es", "wish_dead", "(no quiero|ya no quiero|no deseo) ~1 (vivir|seguir viviendo|estar vivo|estar viva|existir|despertar|seguir aqui|estar aqui) !en|con|cerca|lejos", ""),
    ("es", "wish_dead", "ojala|quisiera|desearia ~3 muerto|muerta|(no haber nacido)|(no despertar)|morir", "n"),
    ("es", "wish_dead", "(mejor muerto|mejor muerta|estaria mejor muerto|estaria mejor muerta|mejor sin mi)", ""),
    ("es", "warning_sign", "(no vale la pena vivir|no tengo razon para vivir|no tengo por que vivir|sin razon para vivir|soy una carga|ya no aguanto mas|ya no puedo mas)", ""),
    ("es", "method", "como ~2 suicidarme|matarme|suicidarse|matarse|(morir sin dolor)", ""),
    ("pt", "ideation", "(quero|vou|penso em) ~1 (morrer|me matar|suicidar|me suicidar|tirar minha vida|tirar a minha vida) !de", "n"),
    ("pt", "wish_dead", "nao quero mais? viver|existir", ""),
    ("fr", "ideation", "(je veux|envie de|je vais|je voudrais) ~1 (mourir|me tuer|me suicider|en finir) !de", "n"),
    ("fr", "wish_dead", "(je ne veux plus vivre|je veux plus vivre)", ""),
    ("de", "ideation", "(ich will|ich mochte|ich werde) ~1 (sterben|mich umbringen|mich toten|nicht mehr leben)", "n"),
    ("it", "ideation", "(voglio|vorrei|devo|sto per|penso di|ho voglia di) ~1 (morire|uccidermi|ammazzarmi|suicidarmi|farla finita|togliermi la vita)", "n"),
    ("it", "ideation", "(mi voglio|mi vorrei) ~1 uccidere|ammazzare|suicidare", "n"),
    ("it", "wish_dead", "(non voglio piu vivere|non voglio vivere piu|vorrei essere morto|vorrei essere morta|vorrei non essere mai nato|vorrei non essere mai nata)", ""),
    ("de", "ideation", "(mich umbringen|bringe mich um|will nicht mehr leben)", "n"),
    ("es", "plan", "(me las tomo todas|tomarmelas todas|tomarme todas|tomarlas todas)", ""),
    ("es", "warning_sign", "si yo? no existiera", ""),
    ("es", "preparatory", "cuando ya no este", ""),
    ("es", "method", "tirar|tirarme ~2 (del|de un|desde el|desde un|de el) puente|edificio|balcon", "n"),
    ("es", "ideation", "irme|ir de este mundo", "n"),
    ("es", "ideation", "pienso|pensando|pensar ~3 suicidio", "n"),
    ("es", "preparatory", "(todo listo|tengo todo) ~2 para irme", ""),
    ("es", "preparatory", "(tengo|ya tengo) las pastillas listas", ""),
    ("es", "warning_sign", "(no tengo|ya no tengo) razones para vivir", ""),
    ("es", "self_harm", "autolesionando|autolesionarme|autolesiono", ""),
    ("es", "wish_dead", "(mejor|prefiero) no despertar", ""),
    ("es", "self_harm", "lastimando|lastimo|lastimarme ~2 a proposito", ""),
    ("es", "warning_sign", "sentido ~2 (seguir viviendo|vivir)", ""),
    ("es", "wish_dead", "no hubiera nacido", ""),
    ("es", "plan", "intente|intento ~1 matarme|suicidarme", ""),
    ("es", "warning_sign", "(better|mejor) sin mi", ""),
    ("es", "self_harm", "me corte (last night|anoche|otra vez|again)", ""),
    ("es", "ideation", "(me voy para siempre|irme para siempre)", ""),
    ("es", "warning_sign", "no vale la pena ~1 (estar aqui|vivir|seguir)", ""),
    ("es", "wish_dead", "(cansado|cansada|harto|harta) de vivir", ""),
    ("es", "ideation", "dejar de existir", "n"),
    ("es", "preparatory", "carta|cartas de despedida", ""),
    ("es", "wish_dead", "ojala ~2 no despertara|despierte|despertar", "n"),
    ("es", "warning_sign", "no le veo sentido ~2 la vida", ""),
    ("es", "method", "(forma|manera) menos dolorosa de morir", ""),
    ("es", "method", "tirarme|aventarme ~2 puente|edificio|balcon|techo", "n"),
    ("es", "warning_sign", "nadie me extranaria", ""),
    ("es", "third_person", "(se quiere|se va a|se queria|se quiso|se piensa|se iba a) ~1 matar|suicidar|morir|(quitar la vida) !de", "n"),
    ("es", "third_person", "(quiere|queria|va a|piensa|pensando en|dice que va a) ~1 morir|suicidarse|matarse|morirse|(quitarse la vida) !de", "n"),
    ("es", "self_harm", "(me hago dano|hacerme dano|me autolesiono|autolesionarme|me lastimo a proposito|lastimarme a proposito|autolesion|autolesiones)", "n"),
    ("es", "self_harm", "(me corto|me corte|me cortaba|cortarme|me quemo|me queme|quemarme) ~2 brazos|brazo|munecas|muneca|piernas|pierna|venas|vena|piel", "n"),
    ("es", "self_harm", "(me corto|me corte|cortarme|me volvi a cortar) (otra vez|de nuevo)", "n"),

    # ---- markers (never alert by themselves) ---------------------------------------------------------------
    ("x_idiom", "exclude", "terminate|terminating|kill|killing|end|ending @SELF ~6 (hand off|handoff|next worker|the worker|another worker|agent|session|task|process|restart|shutdown|subprocess)", ""),
    ("x_idiom", "exclude", "@DEVNOUN|file|files|binary|installer|executable|message|messages|email|snap|snaps|payload|malware|exe|link|links|token|tokens|post|posts|story|stories ~4 self delete|deleting|deletes|destruct|destructs|terminate|terminates", ""),
    ("x_idiom", "exclude", "(rip|deprecated|legacy|api|endpoint|version|support|python|feature|@DEVNOUN|branch|repo|project|server|library|framework|flash|ie|internet explorer) ~3 emojigrave", ""),
    ("x_idiom", "exclude", "end|ending it all with ~2 commit|merge|push|rebase|reset|pr|script|release|tag|deploy|bang|party|song|joke|flourish|style|celebration|squash", ""),
    ("x_idiom", "exclude", "end|ending it all by ~2 merging|committing|pushing|rebasing|reverting|squashing|rewriting|deploying|deleting|shipping|releasing|tagging", ""),
    ("x_idiom", "exclude", "(i am|i feel|feel like|feeling like|being|been|i was|just) ~3 burden on|to|for the|our|this ~2 server|servers|build|ci|cluster|database|db|system|network|infra|budget|cpu|memory|pipeline|api|disk|@DEVNOUN|backend|frontend|gpu", ""),
    ("x_idiom", "exclude", "@LEAD? @ADV? @ANYKILL|hurt|cut|@DIE @SELF|@YOURSELF|@SELF3 (laughing|in the foot|in the feet|over it|over this|over that|over nothing|up)", ""),
    ("x_idiom", "exclude", "@LEAD? @ADV? killing @SELF|@YOURSELF ~1 (trying|working|to finish|to get|to make|over|for work|at work|at the gym|at the office|for this|for them|for you|on this)", ""),
    ("x_idiom", "exclude", "enough rope ~4 hang @SELF3|@YOURSELF|@SELF", ""),
    ("x_idiom", "exclude", "cross my heart ~3 die", ""),
    ("x_idiom", "exclude", "@LEAD? @ADV? drown|drowning @SELF in|with ~1 work|coffee|tea|tickets|paperwork|emails|music|books|code|games|debt|meetings", ""),
    ("x_idiom", "exclude", "@LEAD? @ADV? shoot|shooting @SELF|@YOURSELF|@SELF3 a|an|the? email|mail|message|note|reminder|text|dm|link|line|quick", ""),
    ("x_idiom", "exclude", "i|we ~2 overdosed|overdosing|overdose|od on ~2 @TREATS", ""),
    ("x_idiom", "exclude", "overdosed|overdosing|overdose|od on ~2 @TREATS", ""),
    ("x_idiom", "exclude", "@LEAD? @ADV? @DIE (laughing|of laughter|of embarrassment|of boredom|of shame|of cringe|happy|trying|on this hill|in a fire|in a ditch|for)", ""),
    ("x_idiom", "exclude", "@LEAD? @ADV? gas|gassing @SELF up", ""),
    ("x_idiom", "exclude", "suicide is|was not|never ~3 only|tempting|(way out)|answer|option", ""),
    ("x_idiom", "exclude", "@DEVNOUN ~4 @ANYKILL|suicide|die|dies|(commit suicide)|(kill itself)|(end it)", ""),
    # work written in words that crisis phrases use: tries, ends, goodbyes and game levels
    ("x_work", "exclude", "after|since|before|in|survived my ~2 attempt|attempts ~5 build|builds|test|tests|migration|deploy|deployment|query|script|regex|parser|fix|patch|compile|install|upload|download|login|request|requests|retry|pipeline|code|commit|merge|approach|solution|version|implementation|rate|error|errors|green|passed|failing|timeout|api|endpoint|refactor|function|server|config|setup|upgrade|json|yaml|log|logs|file|files|output|running|retrying|terminate|job|jobs", ""),
    ("x_work", "exclude", "my ~2 attempt|attempts ~5 build|builds|test|tests|migration|deploy|deployment|query|script|regex|parser|fix|patch|compile|install|upload|download|login|request|requests|retry|pipeline|code|commit|merge|approach|solution|version|implementation|rate|error|errors|green|passed|failing|timeout|api|endpoint|refactor|function|server|config|setup|upgrade|json|yaml|log|logs|file|files|output|running|retrying|terminate|job|jobs", ""),
    ("x_work", "exclude", "@LEAD? @ADV? end|ending it all? ~6 test|tests|canary|epic|ticket|tickets|backlog|cluster|experiment|sprint|container|containers|tab|tabs|release|deploy|migration|branch|rollback|rolling|pipeline|build|server|servers|pod|pods|instance|instances|script|ctrl|trap", ""),
    ("x_work", "exclude", "final|last? goodbye|farewell ~3 template|templates|html|page|screen|api|routes|route|python|version|feature|endpoint|endpoints|flow|modal|dialog|v1|v2|legacy|deprecated|component|banner|toast", ""),
    ("x_work", "exclude", "this is my? goodbye|farewell ~3 template|templates|html|page|screen|api|routes|route|python|version|feature|endpoint|endpoints|flow|modal|dialog|v1|v2|legacy|deprecated|component|banner|toast", ""),
    ("x_work", "exclude", "done|tired|sick|finished ~3 life|lives cycle|cycles|insurance|span|expectancy|hack|hacks|coach|style|support|saver|science|sciences|savings", ""),
    ("x_work", "exclude", "npc|npcs|player|players|character|characters|enemy|enemies|mob|mobs|boss|avatar|sprite|sprites|unit|units ~6 jump|jumps|jumping|leap|fall|falls ~3 @HIGH", ""),
    ("x_work", "exclude", "jump|jumping|leap|fall ~3 @HIGH ~6 editor|level|physics|collider|hitbox|damage|animation|respawn|checkpoint|map|scene", ""),
    ("x_idiom", "exclude", "@LEAD? @ADV? hang|hanging @SELF a|some|the ~1 hammock|picture|poster|shelf|swing|painting|frame|coat|lantern", ""),
    # KMS, the cloud Key Management Service ("aws kms decrypt", "KMS_KEY_ID", "kms:Decrypt"), and kilometres
    ("x_kms", "exclude", "aws|gcloud|azure|google|gcp|amazon|cloud|vault|hashicorp|sops|terraform|boto3 ~2 kms", ""),
    ("x_kms", "exclude", "the|an|your|our|its|their|use|using|via|through|with|by|enable|enabled|disable|disabled kms", ""),
    ("x_kms", "exclude", "kms ~1 key|keys|keyring|keyrings|decrypt|encrypt|decryption|encryption|encrypted|alias|aliases|policy|policies|client|arn|service|api|grant|grants|cmk|cmks|master|permission|permissions|access|role|roles|endpoint|provider|sign|signing|verify|describe|list|create|generate|reencrypt|rotation|rotate|region|plugin|secret|secrets|config|datakey|backend|id|ids|uri|url|error|errors|call|calls|request|requests|cli|sdk|module|resource|resources|integration|admin|iam|kek|dek|envelope|ciphertext|plaintext|blob|account|backed|managed|based|protected|wrapped", ""),
    ("x_kms", "exclude", "num|0|1|2|3|4|5|6|7|8|9|few|many|several|hundred|hundreds|thousand|thousands|couple|dozen|more|less|fewer|extra|million|miles|per ~1 kms", ""),
    ("serious", "serious", "(not joking|not kidding|no joke|no joking|mean it|i am serious|dead serious|for real this time|this time|not even joking|not playing|no cap|being serious)", ""),
    ("job", "job", "(last day|new job|new role|new position|farewell party|farewell lunch|leaving the company|leaving the team|leaving this company|retire|retiring|retirement|moving on to|two weeks notice|my last shift|great ride|farewell email|leaving party|going away party|graduating|graduation|my internship|this job|the company)", ""),
    ("accident", "accident", "(accidentally|accident|by accident|shaving|cooking|chopping|kitchen|gym|workout|lifting|playing|skiing|fell|tripped|slipped|paper cut|papercut|hiking|biking)", ""),
    ("moving", "moving", "(moving|move out|moving out|declutter|decluttering|garage sale|yard sale|selling|upgrade|upgrading|downsizing|minimalism|minimalist|spring cleaning|relocating|giveaway|free to a good home|old)", ""),
]

# ---------------------------------------------------------------------------------------------------------
# context word sets (single tokens)

#: Research, media, fiction and game context: clears ``c`` patterns.
CONTEXT_WORDS = frozenset("""
research researcher researchers researching study studies studying statistics stats rates epidemiology
classifier detector detection moderation guidelines prevention awareness gatekeeper qpr article journalism
newsroom reporting essay lecture course novel book books movie film films show series episode episodes
character characters story stories plot scene poem song lyrics fiction fictional shakespeare juliet romeo
hamlet ophelia minecraft game games gaming respawn npc roblox fortnite anime manga videogame ttrpg dnd
elden skyrim zelda pokemon valorant overwatch terraria xbox playstation nintendo ps5 speedrun
historical documentary textbook seminar curriculum paper thesis dissertation policy
participants participant baseline cohort reviewer reviewers screening survey questionnaire clinicians clinical
trial quiz pharmacology exam homework training trainees clinician clinicians counselor counselors callers
""".split())

#: Hyperbole markers: clear ``h`` patterns unless a ``serious`` marker is present.
HYPERBOLE_WORDS = frozenset("lol jk lmfao kidding joking sarcasm sarcastic hyperbole emojiskull".split())

#: Tokens after a hit that mark a hyperbolic condition ("gonna kms if this build fails").
HYPERBOLE_NEXT = frozenset("if unless when whenever lol jk emojiskull".split())

NEGATORS = frozenset("not never no nobody nothing neither nor without nao nunca jamas pas nicht kein".split())
#: Negation does not reach over these (a new clause or a new subject begins).
NEGATION_STOPS = frozenset(". , but and i you he she they we it though although yet because so stop stopping quit help "
                           "anymore".split())

#: Words that turn an ideation/intent hit into intent/plan (timing).
TIME_WORDS = frozenset("""
tonight today tomorrow weekend morning evening midnight soon monday tuesday wednesday thursday friday
saturday sunday birthday week month pm oclock hours minutes noon christmas holidays tmrw
""".split())

#: Frequent words: never chosen as a pattern's anchor when a rarer required word exists.
COMMON_WORDS = frozenset("""
a an the and or but if so i me my you your he she it we they them his her their our us is am are was were be
been being to of in on at for with about from by as this that these those what when how why who where which
all just really not no do does did have has had will would can could should shall may might must want
wanted need going go get got think like feel know see say said make made take one up out off over down
again more some any very too also now then than there here way time day people thing things much many
well even still back only own same other new good bad first last long little right left come came give
make let put use used work tell ask try call keep leave lot yes ok okay 2 u s t d ll m re ve
""".split())

#: Words frequent in agent requests (commands, tool names) and chat: poor anchors and prefilter keys (a pattern
#: is keyed on a rarer required element when it has one).
BUSY_WORDS = frozenset("""
num i s sh run kill head if all this find my last no not count home stop it set post be done can end again
file files list get test make build start exit out down up go take give over cut drop die dead free time
for to right ready next into hand order place until till til de se otra death now
""".split())

SEVERITY = {"plan": 9, "intent": 8, "method": 7, "preparatory": 6, "self_harm": 5, "ideation": 4,
            "wish_dead": 3, "warning_sign": 2, "third_person": 1}
MARKER_CATEGORIES = frozenset({"exclude", "serious", "job", "accident", "moving"})

# ---------------------------------------------------------------------------------------------------------
# derived tables (lexicon for leet/typo/segmentation, fuzzy keywords)

_EXTRA_WORDS = """
a an the and or but if so i me my you your he she it we they them his her their is am are was were be been
being to of in on at for with about from by as this that these those what when how why who all just
really not no do does did have has had will would can could should shall may might must
want need feel like going go get got think thinking life live living die dead death kill myself self
suicide suicidal end it all tonight today tomorrow now please help sad alone anymore again never
"""

_WORD_RE = re.compile(r"(?<![@\w])[a-z0-9]+")


def _lexicon() -> frozenset[str]:
    words: set[str] = set(_EXTRA_WORDS.split())
    for text in [*MACROS.values(), *(p[2] for p in PATTERNS)]:
        words.update(_WORD_RE.findall(re.sub(r"@[A-Z0-9_]+", " ", text)))
    for v in REWRITE.values():
        words.update(v)
    for pairs in MULTI.values():
        for seq, repl in pairs:
            words.update(seq)
            words.update(repl)
    words.update(HYPERBOLE_WORDS | TIME_WORDS | NEGATORS)
    words.update(EMOJI.values())
    return frozenset(w for w in words if w.isalpha() or w in {"2"})


LEXICON: frozenset[str] = _lexicon()

#: Words that ``*`` masks may hide (``s**cide``, ``k*ll``, ``mys*lf``).
MASKABLE: tuple[str, ...] = tuple("""
suicide suicidal kill killing myself yourself die dead death dying unalive hang hanging overdose self harm
selfharm cutting cut life end ending hurt wrists pills noose gun shoot
""".split())

MASKABLE_SET: frozenset[str] = frozenset(MASKABLE)

#: Long keywords corrected at one edit (``sucide``, ``suicdal``, ``myslef``, ``overdoes``).
FUZZY_KEYWORDS: tuple[str, ...] = tuple("""
suicide suicidal myself yourself himself herself themselves overdose overdosing unalive unaliving goodbye
lethal painless burden stockpiling thinking tonight tomorrow anymore
""".split())


def _fuzzy_deletes() -> dict[str, str]:
    out: dict[str, str] = {}
    for kw in FUZZY_KEYWORDS:
        out.setdefault(kw, kw)
        for i in range(len(kw)):
            out.setdefault(kw[:i] + kw[i + 1 :], kw)
    return out


FUZZY_DELETES: dict[str, str] = _fuzzy_deletes()

#: Words used to split glued or letter-spaced text (``iwanttodie``, ``k i l l m y s e l f``).
SEGMENT_WORDS: frozenset[str] = frozenset(w for w in LEXICON if len(w) > 1 or w in {"i", "a"}) | frozenset(
    k for k in REWRITE if k.isalpha() and len(k) > 1)
SEGMENT_MAXLEN = max(len(w) for w in SEGMENT_WORDS)
#: A glued token is split only when it contains one of these.
GLUE_STEMS: tuple[str, ...] = ("myself", "suicid", "todie", "killmy", "endmy", "mylife", "unalive", "kms",
                               "bedead", "wasdead", "kill", "die")
#: A run of single letters is joined only when it contains one of these (keeps hostile input cheap).
RUN_STEMS: tuple[str, ...] = ("ki", "di", "de", "su", "se", "li", "en", "ha", "hu", "cu", "km", "ov", "un",
                              "ms", "yo", "od", "ti")
