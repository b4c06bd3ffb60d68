import { storeImage } from '~/domain/media/images.server';
import { SITE_SETTINGS_KEY } from '~/domain/settings/site-settings.server';
import type { SiteSettings } from '~/domain/settings/site-settings';
import { DEFAULT_RETENTION_DAYS } from '~/lib/env.server';
import type { Storage } from '~/lib/storage.server';
import type { DB } from './index';
import { seedPictures } from './seed-images';
import { loadSharp } from '~/lib/sharp.server';
import { privacyTexts, upgradePrivacyDefault } from './seed-privacy';

const SEED_MARKER = 'seed:v1';

/**
 * Default content for a new site, in fr, en and es. Runs at every start but writes only what is
 * missing: once seeded (marker row), nothing here ever overwrites what an admin changed or deleted.
 * `retentionDays` (DATA_RETENTION_DAYS) is the period the privacy page states.
 */
export async function seedDefaults(db: DB, storage: Storage, retentionDays = DEFAULT_RETENTION_DAYS): Promise<boolean> {
  const marker = await db.selectFrom('settings').select('key').where('key', '=', SEED_MARKER).executeTakeFirst();
  if (marker) {
    // A later default for a page nobody edited (seed-privacy.ts); never an admin's text.
    await upgradePrivacyDefault(db, retentionDays);
    return false;
  }

  const now = new Date().toISOString();
  const pics = seedPictures();
  const url: Record<string, string> = {};
  for (const [id, pic] of Object.entries(pics)) {
    const isPng = pic.name.endsWith('.png');
    const img = (await loadSharp())(Buffer.from(pic.svg));
    const data = isPng ? await img.png().toBuffer() : await img.jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    url[id] = (await storeImage(db, storage, pic.name, data, isPng ? 'image/png' : 'image/jpeg')).url;
  }

  await db.transaction().execute(async (trx) => {
    const pages = defaultPages(url, retentionDays);
    for (const [pageId, content] of Object.entries(pages)) {
      await trx
        .insertInto('page_content')
        .values({ page_id: pageId, images: JSON.stringify(content.images), texts: JSON.stringify(content.texts), version: 1, updated_at: now })
        .onConflict((oc) => oc.column('page_id').doNothing())
        .execute();
    }

    const settings: SiteSettings = {
      siteLogoUrl: url.logo,
      logoUrl: url.logo,
      contactEmail: 'contact@fondation-thv.org',
      phone: '+33 1 23 45 67 89',
      address: '12 rue de la Paix, 75002 Paris, France',
      whatsAppNumber: '33123456789',
      facebookUrl: 'https://www.facebook.com/',
      twitterUrl: '',
      linkedinUrl: 'https://www.linkedin.com/',
      youtubeUrl: 'https://www.youtube.com/',
      membershipFormUrl: '',
      mapEmbedUrl: '',
    };
    await trx
      .insertInto('settings')
      .values({ key: SITE_SETTINGS_KEY, value: JSON.stringify(settings), version: 1, updated_at: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();

    for (const p of defaultProjects(url)) {
      await trx
        .insertInto('projects')
        .values({ ...p, translations: JSON.stringify(p.translations), version: 1, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
    for (const p of defaultPosts(url)) {
      await trx
        .insertInto('blog_posts')
        .values({ ...p, translations: JSON.stringify(p.translations), version: 1, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
    const partners = [
      { id: '1', name: 'Solidarité Santé', logo_url: url.partner1, website: 'https://example.org/solidarite-sante' },
      { id: '2', name: 'Écoles du Monde', logo_url: url.partner2, website: 'https://example.org/ecoles-du-monde' },
      { id: '3', name: 'Terres Nourricières', logo_url: url.partner3, website: 'https://example.org/terres-nourricieres' },
    ];
    for (const [i, p] of partners.entries()) {
      await trx
        .insertInto('partners')
        .values({ ...p, position: i, version: 1, created_at: now, updated_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
    await trx.insertInto('settings').values({ key: SEED_MARKER, value: JSON.stringify({ at: now }), version: 1, updated_at: now }).execute();
  });
  return true;
}

function defaultPages(url: Record<string, string>, retentionDays: number) {
  return {
    home: {
      images: {
        heroImage: url.hero1,
        heroImage2: url.hero2,
        heroImage3: url.hero3,
        heroImage4: url.hero4,
        heroImage5: url.hero5,
        actionsPreviewImage1: url.action1,
        actionsPreviewImage2: url.action2,
        actionsPreviewImage3: url.action3,
      },
      texts: {
        fr: {
          heroTitle: 'Agir ensemble pour un avenir digne',
          heroSubtitle: '<p>Santé, éducation, alimentation : nous accompagnons les communautés les plus vulnérables.</p>',
        },
        en: {
          heroTitle: 'Acting together for a dignified future',
          heroSubtitle: '<p>Health, education, food: we stand by the most vulnerable communities.</p>',
        },
        es: {
          heroTitle: 'Actuar juntos por un futuro digno',
          heroSubtitle: '<p>Salud, educación, alimentación: acompañamos a las comunidades más vulnerables.</p>',
        },
      },
    },
    about: {
      images: { founderImage: url.founder },
      texts: {
        fr: {
          title: 'À propos de la fondation',
          content:
            '<h2>L’histoire de notre fondateur</h2><p>Né dans un village où l’école la plus proche était à dix kilomètres, notre fondateur a connu très tôt la valeur de l’entraide. Après une carrière dans la santé publique, il a créé la Fondation THV en 2020 pour rendre aux communautés ce qu’elles lui avaient donné.</p><p>Aujourd’hui, des bénévoles, des partenaires et des donateurs font vivre ce projet au quotidien.</p>',
        },
        en: {
          title: 'About the foundation',
          content:
            '<h2>Our founder’s story</h2><p>Born in a village where the nearest school was ten kilometres away, our founder learnt early the value of mutual help. After a career in public health, he created the THV Foundation in 2020 to give back to the communities what they had given him.</p><p>Today, volunteers, partners and donors bring this project to life every day.</p>',
        },
        es: {
          title: 'Sobre la fundación',
          content:
            '<h2>La historia de nuestro fundador</h2><p>Nacido en una aldea donde la escuela más cercana estaba a diez kilómetros, nuestro fundador aprendió muy pronto el valor de la ayuda mutua. Tras una carrera en salud pública, creó la Fundación THV en 2020 para devolver a las comunidades lo que le habían dado.</p><p>Hoy, voluntarios, socios y donantes dan vida a este proyecto cada día.</p>',
        },
      },
    },
    missions: {
      images: { mission1Image: url.mission1, mission2Image: url.mission2, mission3Image: url.mission3, mission4Image: url.mission4 },
      texts: {
        fr: {
          title: 'Nos missions',
          introduction: '<p>Nous agissons là où les besoins sont les plus grands, avec les communautés et pour elles.</p>',
        },
        en: {
          title: 'Our missions',
          introduction: '<p>We act where the needs are greatest, with the communities and for them.</p>',
        },
        es: {
          title: 'Nuestras misiones',
          introduction: '<p>Actuamos donde las necesidades son mayores, con las comunidades y para ellas.</p>',
        },
      },
    },
    contact: {
      images: {},
      texts: {
        fr: { title: 'Contactez-nous', address: '' },
        en: { title: 'Contact us', address: '' },
        es: { title: 'Contáctenos', address: '' },
      },
    },
    privacy: { images: {}, texts: privacyTexts(retentionDays) },
    terms: {
      images: {},
      texts: {
        fr: {
          title: 'Mentions légales',
          content:
            '<p>Éditeur du site : Fondation THV, 12 rue de la Paix, 75002 Paris, France.</p><p>Directeur de la publication : le président de la fondation.</p><p>Les textes et images de ce site sont la propriété de la fondation, sauf mention contraire.</p>',
        },
        en: {
          title: 'Legal notice',
          content:
            '<p>Site publisher: THV Foundation, 12 rue de la Paix, 75002 Paris, France.</p><p>Publication director: the chair of the foundation.</p><p>The texts and pictures on this site belong to the foundation unless stated otherwise.</p>',
        },
        es: {
          title: 'Aviso legal',
          content:
            '<p>Editor del sitio: Fundación THV, 12 rue de la Paix, 75002 París, Francia.</p><p>Director de la publicación: el presidente de la fundación.</p><p>Los textos e imágenes de este sitio son propiedad de la fundación, salvo indicación contraria.</p>',
        },
      },
    },
  };
}

function defaultProjects(url: Record<string, string>) {
  return [
    {
      id: '1',
      image: url.project1,
      date: '2026-03-15',
      location: 'Bouaké, Côte d’Ivoire',
      status: 'En cours',
      active: 1,
      translations: {
        fr: { title: 'Caravane médicale', description: '<p>Des consultations gratuites et des dépistages dans douze villages.</p>' },
        en: { title: 'Medical caravan', description: '<p>Free consultations and screenings in twelve villages.</p>' },
        es: { title: 'Caravana médica', description: '<p>Consultas gratuitas y pruebas de detección en doce aldeas.</p>' },
      },
    },
    {
      id: '2',
      image: url.project2,
      date: '2026-01-10',
      location: 'Thiès, Sénégal',
      status: 'Terminé',
      active: 1,
      translations: {
        fr: { title: 'Une école rénovée', description: '<p>Six salles de classe rénovées et une bibliothèque de 800 livres.</p>' },
        en: { title: 'A renovated school', description: '<p>Six renovated classrooms and a library of 800 books.</p>' },
        es: { title: 'Una escuela renovada', description: '<p>Seis aulas renovadas y una biblioteca de 800 libros.</p>' },
      },
    },
    {
      id: '3',
      image: url.project3,
      date: '2026-09-01',
      location: 'Douala, Cameroun',
      status: 'Planifié',
      active: 0,
      translations: {
        fr: { title: 'Jardins partagés', description: '<p>Des jardins communautaires pour 150 familles.</p>' },
        en: { title: 'Shared gardens', description: '<p>Community gardens for 150 families.</p>' },
        es: { title: 'Huertos compartidos', description: '<p>Huertos comunitarios para 150 familias.</p>' },
      },
    },
  ];
}

function defaultPosts(url: Record<string, string>) {
  return [
    {
      id: '1',
      image: url.post1,
      author: 'Admin THV',
      date: '2026-10-05',
      status: 'Publié',
      translations: {
        fr: {
          category: 'Santé',
          title: 'Retour sur la caravane médicale',
          excerpt: 'Plus de 2 000 consultations gratuites en trois semaines.',
          content: '<p>Pendant trois semaines, nos équipes ont parcouru douze villages.</p><h2>Les chiffres clés</h2><ul><li>2 000 consultations</li><li>350 dépistages</li></ul><p>Merci à nos <a href="https://example.org/solidarite-sante">partenaires</a>.</p>',
        },
        en: {
          category: 'Health',
          title: 'Looking back at the medical caravan',
          excerpt: 'More than 2,000 free consultations in three weeks.',
          content: '<p>For three weeks, our teams travelled through twelve villages.</p><h2>Key figures</h2><ul><li>2,000 consultations</li><li>350 screenings</li></ul><p>Thanks to our <a href="https://example.org/solidarite-sante">partners</a>.</p>',
        },
        es: {
          category: 'Salud',
          title: 'Balance de la caravana médica',
          excerpt: 'Más de 2.000 consultas gratuitas en tres semanas.',
          content: '<p>Durante tres semanas, nuestros equipos recorrieron doce aldeas.</p><h2>Las cifras clave</h2><ul><li>2.000 consultas</li><li>350 pruebas</li></ul><p>Gracias a nuestros <a href="https://example.org/solidarite-sante">socios</a>.</p>',
        },
      },
    },
    {
      id: '2',
      image: url.post2,
      author: 'Admin THV',
      date: '2026-08-20',
      status: 'Publié',
      translations: {
        fr: {
          category: 'Éducation',
          title: 'La rentrée à l’école de Thiès',
          excerpt: '240 élèves ont retrouvé des salles de classe rénovées.',
          content: '<p>Grâce à vos dons, 240 élèves ont fait leur rentrée dans des salles rénovées et équipées.</p>',
        },
        en: {
          category: 'Education',
          title: 'Back to school in Thiès',
          excerpt: '240 pupils returned to renovated classrooms.',
          content: '<p>Thanks to your donations, 240 pupils went back to school in renovated, equipped classrooms.</p>',
        },
        es: {
          category: 'Educación',
          title: 'La vuelta al cole en Thiès',
          excerpt: '240 alumnos volvieron a aulas renovadas.',
          content: '<p>Gracias a sus donativos, 240 alumnos volvieron a clase en aulas renovadas y equipadas.</p>',
        },
      },
    },
    {
      id: '3',
      image: url.post3,
      author: 'Admin THV',
      date: '2026-11-01',
      status: 'Brouillon',
      translations: {
        fr: { category: 'Alimentation', title: 'Bientôt : nos jardins partagés', excerpt: 'Un projet en préparation.', content: '<p>Brouillon en cours de rédaction.</p>' },
        en: { category: 'Food', title: 'Coming soon: our shared gardens', excerpt: 'A project in preparation.', content: '<p>Draft in progress.</p>' },
        es: { category: 'Alimentación', title: 'Próximamente: nuestros huertos', excerpt: 'Un proyecto en preparación.', content: '<p>Borrador en curso.</p>' },
      },
    },
  ];
}
